// Group waits of the running block (group_waits.hpp): parking a GPU thread on
// an object until another thread wakes it, the synchronisation a completed
// barrier phase stands for, and the forming of coalesced groups.
#include <cstring>

#include "block_runner.hpp"
#include "checker_hooks.hpp"
#include "gpulab/emu/group_waits.hpp"

namespace gpulab::emu {
namespace {
const char kCoalesceTag = 0;  // what lanes in coalesced_threads() are parked on

bool same_site(const EmuThread& a, const EmuThread& b) {
  return a.wait_line == b.wait_line && (a.wait_file == b.wait_file || std::strcmp(a.wait_file, b.wait_file) == 0);
}
}  // namespace

void park(const void* object, const char* what, const char* file, int line) {
  running_block_runner()->park(object, what, file, line);
}
void wake_parked(const void* object) { running_block_runner()->wake_parked(object); }
void group_synchronised(const char* file, int line) { running_block_runner()->group_synchronised(file, line); }
unsigned coalesced_lanes(const char* file, int line) { return running_block_runner()->coalesce(file, line); }

void BlockRunner::park(const void* object, const char* what, const char* file, int line) {
  settle();
  EmuThread* self = current_;
  self->state = EmuThread::State::parked;
  self->wait_file = file;
  self->wait_line = line;
  parked_on_[self->context.linear] = ParkedOn{object, what};
  suspend(self);
}

void BlockRunner::wake_parked(const void* object) {
  settle();
  // Threads from next_unstarted_ on have not started: their records are stale (block_runner.cpp).
  for (unsigned i = 0; i < next_unstarted_; ++i) {
    EmuThread& t = threads_[i];
    if (t.state == EmuThread::State::parked && parked_on_[i].object == object) {
      t.state = EmuThread::State::runnable;
      parked_on_[i].object = nullptr;
      ++runnable_;
    }
  }
  progress_.fetch_add(1, std::memory_order_relaxed);
}

void BlockRunner::group_synchronised(const char* file, int line) {
  // Accesses in different barrier intervals are ordered for the race check: a
  // completed phase starts a new interval for the whole block. Threads outside
  // the group are ordered with it too, which can hide a race but never invents one.
  settle();
  current_->wait_file = file;
  current_->wait_line = line;
  ++barrier_epoch_;
  progress_.fetch_add(1, std::memory_order_relaxed);
  if (hooks_) hooks_->barrier_released(*this);
}

unsigned BlockRunner::coalesce(const char* file, int line) {
  settle();
  EmuThread* self = current_;
  self->state = EmuThread::State::parked;
  self->wait_file = file;
  self->wait_line = line;
  parked_on_[self->context.linear] = ParkedOn{&kCoalesceTag, "coalesced_threads()"};
  ++coalescing_;
  // The common case: every live lane of the warp is here. Otherwise the group
  // forms once the block can run nothing else (release_coalesced).
  if (!try_coalesce_warp(self->context.warp())) suspend(self);
  return static_cast<unsigned>(warp_of(*self).warp_result);
}

bool BlockRunner::try_coalesce_warp(unsigned warp) {
  EmuThread* self = current_;
  const unsigned base = warp * 32;
  const unsigned lanes = existing_lanes(warp);
  unsigned mask = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(lanes >> l & 1u)) continue;
    // A lane that has not started yet will get here (or exit) later: wait for it.
    if (base + l >= next_unstarted_) return false;
    const EmuThread& t = threads_[base + l];
    if (t.state == EmuThread::State::exited) continue;
    if (t.state != EmuThread::State::parked || parked_on_[base + l].object != &kCoalesceTag || !same_site(t, *self))
      return false;
    mask |= 1u << l;
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    EmuThread& t = threads_[base + l];
    warp_of(t).warp_result = mask;
    t.state = EmuThread::State::runnable;
    parked_on_[base + l].object = nullptr;
    --coalescing_;
    if (&t != self) ++runnable_;
  }
  progress_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

EmuThread* BlockRunner::release_coalesced() {
  if (coalescing_ == 0) return nullptr;
  EmuThread* first = nullptr;
  // Only at a stall, when every thread has started; bounded all the same, as
  // records from next_unstarted_ on are stale.
  for (unsigned i = 0; i < next_unstarted_; ++i) {
    EmuThread& leader = threads_[i];
    if (leader.state != EmuThread::State::parked || parked_on_[i].object != &kCoalesceTag) continue;
    // `leader` is the lowest waiting lane at its call site: its group is every lane of the warp there.
    const unsigned base = leader.context.warp() * 32;
    unsigned mask = 0;
    for (unsigned l = leader.context.lane(); l < 32 && base + l < next_unstarted_; ++l) {
      const EmuThread& t = threads_[base + l];
      if (t.state == EmuThread::State::parked && parked_on_[base + l].object == &kCoalesceTag && same_site(t, leader))
        mask |= 1u << l;
    }
    for (unsigned l = 0; l < 32; ++l) {
      if (!(mask >> l & 1u)) continue;
      EmuThread& t = threads_[base + l];
      warp_of(t).warp_result = mask;
      t.state = EmuThread::State::runnable;
      parked_on_[base + l].object = nullptr;
      --coalescing_;
      ++runnable_;
    }
    if (!first) first = &leader;
  }
  if (first) progress_.fetch_add(1, std::memory_order_relaxed);
  return first;
}

}  // namespace gpulab::emu
