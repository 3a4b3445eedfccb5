// Shadow-memory race detection for GPU threads (see race_detector.hpp).
//
// Happens-before, as on a GPU: within a block, accesses in different barrier
// intervals are ordered, and in the same interval only lanes of one warp that
// a warp collective joined in between (warp_clocks.hpp). Across blocks, only
// atomics order anything, so a plain write conflicts with every access of
// another block unless the writer executed __threadfence() after it (the
// flag-and-fence protocol of decoupled look-back and last-block reductions).
// Volatile accesses count as relaxed atomics across blocks but as plain
// accesses within a block, where they do not order anything.
#include "race_detector.hpp"

#include "host_access.hpp"
#include "messages.hpp"
#include "session.hpp"

namespace gpulab::emu::check {
namespace {

struct Now {
  Access access;
  uint32_t fence = 0;
};

bool ordered_in_block(const Session& s, const Access& earlier, const Access& later) {
  if (earlier.epoch != later.epoch) return true;
  const unsigned warp = later.thread / 32;
  if (earlier.thread / 32 != warp) return false;
  return s.warps.ordered(warp, earlier.thread % 32, earlier.wclock, later.thread % 32);
}

bool conflicts(const Session& s, const Access& earlier, uint32_t earlier_fence, const Access& later) {
  if (earlier.empty() || !(earlier.mask & later.mask) || earlier.same_thread(later)) return false;
  if (!earlier.is_write() && !later.is_write()) return false;
  if (earlier.block == later.block) {
    if (earlier.is_atomic() && later.is_atomic()) return false;
    return !ordered_in_block(s, earlier, later);
  }
  if (!earlier.is_plain_write() && !later.is_plain_write()) return false;
  if (earlier.is_write() && s.fenced_after(earlier.block, earlier.thread, earlier_fence)) return false;
  return true;
}

void race(Session& s, uintptr_t granule_address, size_t size, bool shared, const Access& earlier, const Access& later) {
  if (!s.findings.admit(FindingKind::race, earlier.pc, later.pc)) return;
  const unsigned byte = __builtin_ctz(earlier.mask & later.mask);
  report_race(s, granule_address + byte, size, shared, earlier, later);
}

// Whether one record can stand for both accesses: same thread, kind, barrier interval and warp clock.
bool same_moment(const Access& r, const Access& a) {
  return r.same_thread(a) && r.epoch == a.epoch && r.wclock == a.wclock && r.flags == a.flags;
}

// Whether a slot holding `r` may be given to another thread's read: r is ordered before `now`.
bool stale(const Access& r, const Access& now) { return r.empty() || r.block != now.block || r.epoch != now.epoch; }

void update(Session& s, Cell& c, uintptr_t granule_address, size_t size, bool shared, const Now& now) {
  const Access& a = now.access;
  if (conflicts(s, c.write, c.write_fence, a)) race(s, granule_address, size, shared, c.write, a);
  if (a.is_write()) {
    for (Access& r : c.read) {
      if (conflicts(s, r, 0, a)) race(s, granule_address, size, shared, r, a);
      r.mask &= ~a.mask;
      if (!r.mask) r = Access{};
    }
    const bool extend = same_moment(c.write, a) && c.write_fence == now.fence;
    const uint8_t mask = extend ? (c.write.mask | a.mask) : a.mask;
    c.write = a;
    c.write.mask = mask;
    c.write_fence = now.fence;
    return;
  }
  // A read: keep it in the slot of the same thread, else a free or stale slot, else the second one.
  Access* slot = nullptr;
  for (Access& r : c.read) {
    if (r.same_thread(a)) slot = &r;
  }
  if (slot) {
    const uint8_t mask = same_moment(*slot, a) ? (slot->mask | a.mask) : a.mask;
    *slot = a;
    slot->mask = mask;
    return;
  }
  slot = stale(c.read[0], a) ? &c.read[0] : &c.read[1];
  *slot = a;
}

uint8_t granule_mask(uintptr_t granule_address, uintptr_t begin, uintptr_t end) {
  const uintptr_t lo = begin > granule_address ? begin - granule_address : 0;
  const uintptr_t hi = end < granule_address + 4 ? end - granule_address : 4;
  return static_cast<uint8_t>(((1u << hi) - 1u) & ~((1u << lo) - 1u));
}

void shared_access(Session& s, uintptr_t address, size_t size, Now& now) {
  const size_t offset = address - s.shared_base;
  if (offset + size > s.shared_end) {
    if (s.findings.admit(FindingKind::out_of_bounds, now.access.pc)) {
      report_out_of_bounds(s, address, size, now.access.is_write(), nullptr, now.access.thread);
    }
    return;
  }
  const bool reads = !now.access.is_write() || (now.access.flags & kUpdate);
  bool uninitialised = false;
  for (uintptr_t g = address & ~uintptr_t{3}; g < address + size; g += 4) {
    const size_t granule = (g - s.shared_base) / 4;
    Cell& c = s.shared.cell(granule);
    now.access.mask = granule_mask(g, address, address + size);
    uint8_t& written = s.shared.written(granule);
    if (reads && (written & now.access.mask) != now.access.mask) uninitialised = true;
    if (now.access.is_write()) written |= now.access.mask;
    update(s, c, g, size, true, now);
  }
  if (uninitialised && s.findings.admit(FindingKind::uninitialised, now.access.pc)) {
    report_uninitialised(s, address, size, now.access.thread);
  }
}

void global_access(Session& s, uintptr_t address, size_t size, Now& now) {
  const DeviceAllocation* a = s.global.allocation(address);
  if (!a) {  // not device memory: the thread's stack, the emulator's context, or host memory
    check_host_access(s, address, size, now.access.is_write(), now.access.thread, code_address(now.access.pc));
    return;
  }
  if (address < a->begin || address + size > a->begin + a->size) {
    if (s.findings.admit(FindingKind::out_of_bounds, now.access.pc)) {
      report_out_of_bounds(s, address, size, now.access.is_write(), a, now.access.thread);
    }
    return;
  }
  for (uintptr_t g = address & ~uintptr_t{3}; g < address + size; g += 4) {
    Cell* c = s.global.cell(g);
    if (!c) return;
    now.access.mask = granule_mask(g, address, address + size);
    update(s, *c, g, size, false, now);
  }
}

}  // namespace

int32_t code_offset(uintptr_t pc) { return static_cast<int32_t>(pc - reinterpret_cast<uintptr_t>(&record_access)); }

uintptr_t code_address(int32_t offset) {
  return reinterpret_cast<uintptr_t>(&record_access) + static_cast<intptr_t>(offset);
}

void record_access(uintptr_t address, size_t size, uint8_t flags, uintptr_t pc) {
  Session& s = *tl_session;
  const ThreadContext* t = s.runner ? s.runner->running_context() : nullptr;
  if (!t || size == 0) return;
  const unsigned thread = t->linear;
  Now now;
  now.access.pc = code_offset(pc);
  now.access.block = s.block;
  now.access.epoch = static_cast<uint32_t>(s.runner->barrier_epoch());
  now.access.wclock = s.warps.clock(t->warp(), t->lane());
  now.access.thread = static_cast<uint16_t>(thread);
  now.access.flags = flags;
  now.fence = thread < s.fences.size() ? s.fences[thread] : 0;
  if (address - s.shared_base < s.shared_limit) {
    shared_access(s, address, size, now);
  } else {
    global_access(s, address, size, now);
  }
}

}  // namespace gpulab::emu::check
