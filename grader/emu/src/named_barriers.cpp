// Named barriers: the sixteen barriers of a block that bar.sync / bar.arrive (inline PTX) and
// __barrier_sync / __barrier_sync_count use, as PTX defines them: a barrier counts whole warps (a
// warp arrives once all its lanes that have not exited are there, and counts as 32 threads), a
// phase completes when the count given to it has arrived (or every warp, without a count), and
// bar.arrive signals without waiting for the phase. Barrier 0 over the whole block is
// __syncthreads() and goes there (inline_ptx.cpp); a phase's completion starts a new barrier
// interval for the race check, as a cuda::barrier's does (block_waits.cpp).
#include <bit>
#include <string>

#include "block_runner.hpp"
#include "gpulab/emu/async_copy.hpp"
#include "gpulab/emu/synchronization.hpp"

namespace gpulab::emu {
namespace {

// Reports the misuse; in a kernel the block ends there (device_misuse), outside one it returns.
void refuse(const std::string& what, const char* file, int line) {
  device_misuse("named-barrier", what.c_str(), file, line);
}

}  // namespace

std::string NamedBarrierCall::spelled() const {
  if (intrinsic)
    return has_threads ? "__barrier_sync_count(" + std::to_string(id) + ", " + std::to_string(threads) + ")"
                       : "__barrier_sync(" + std::to_string(id) + ")";
  return std::string(wait ? "bar.sync " : "bar.arrive ") + std::to_string(id) +
         (has_threads ? ", " + std::to_string(threads) : "");
}

void block_named_barrier(unsigned id, unsigned threads, bool has_threads, bool wait, bool intrinsic, const char* file,
                         int line) {
  const NamedBarrierCall call{id, threads, has_threads, wait, intrinsic};
  BlockRunner* r = running_block_runner();
  if (!r) return refuse(call.spelled() + " outside a kernel", file, line);
  const unsigned whole = (r->thread_count() + 31) / 32 * 32;  // barriers count whole warps
  if (id == 0 && wait && (!has_threads || threads == whole)) {
    block_barrier(BarrierKind::plain, 1, file, line);
    return;
  }
  if (id == 0)
    return refuse(call.spelled() +
                      ": barrier 0 is the one __syncthreads() uses, and the emulator runs it only over the whole "
                      "block (" +
                      std::to_string(whole) + " threads); give a barrier of part of the block an id from 1 to 15",
                  file, line);
  if (has_threads && threads == 0)
    return refuse(call.spelled() + ": a named barrier's thread count must not be 0", file, line);
  r->named_barrier(call, file, line);
}

unsigned BlockRunner::live_lanes(unsigned warp) const {
  unsigned m = 0;
  for (unsigned l = 0; l < 32 && warp * 32 + l < thread_count_; ++l) {
    const unsigned i = warp * 32 + l;
    if (i >= next_unstarted_ || threads_[i].state != EmuThread::State::exited) m |= 1u << l;
  }
  return m;
}

void BlockRunner::named_barrier(const NamedBarrierCall& call, const char* file, int line) {
  settle();
  EmuThread* self = current_;
  self->wait_file = file;
  self->wait_line = line;
  const unsigned id = call.id, threads = call.has_threads ? call.threads : 0u;
  const unsigned warps = (thread_count_ + 31) / 32;
  if (id > 15)
    return refuse(call.spelled() + ": a block has 16 named barriers, 0 to 15; the id must be one of them", file, line);
  if (threads % 32 != 0)
    return refuse(call.spelled() + ": a named barrier counts whole warps, so its thread count must be a multiple of 32",
                  file, line);
  if (!call.wait && threads == 0)
    return refuse(call.spelled() + ": bar.arrive needs a thread count (bar.arrive id, count)", file, line);
  if (threads > warps * 32)
    return refuse(call.spelled() + " can never complete: the block has " + std::to_string(thread_count_) +
                      " threads (" + std::to_string(warps) +
                      " warps); give the number of threads that reach this barrier",
                  file, line);
  NamedBarrier& b = named_[id];
  if (b.counting && b.threads != threads)
    return refuse(call.spelled() + ": barrier " + std::to_string(id) + " is in a phase that counts " +
                      (b.threads ? std::to_string(b.threads) + " threads" : std::string("the whole block")) + " (" +
                      b.label +
                      "); every thread that arrives at a barrier in one phase must give the same count. Use another "
                      "id for another group of threads",
                  file, line);
  if (!b.counting) {
    b.counting = true;
    b.threads = threads;
    b.arrived = 0;
    b.label = call.spelled() + " (named barrier, first reached on line " + std::to_string(line) + ")";
    named_touched_ = true;
  }
  const unsigned warp = self->context.warp(), bit = 1u << self->context.lane();
  b.lanes[warp] |= bit;
  // The common case: every lane of the warp is here. A warp with lanes that have exited is
  // counted at the next stall, when nothing else can run (release_named_after_exits).
  if (b.lanes[warp] == existing_lanes(warp)) count_named_warp(id, warp);
  // A lane waits for the rest of its warp (the warp arrives as one, in the phase that is in
  // progress when its last live lane gets here): bar.arrive that long, parked on the warp's lanes;
  // bar.sync until that phase has completed too, parked on the barrier, which wakes its waiters
  // once per phase (a lane whose warp was not counted yet parks again): one switch per thread and
  // phase, as at a __syncthreads().
  if (!call.wait) {
    while (b.lanes[warp] & bit) {
      ++b.arrive_waiters;
      park(&b.lanes[warp], b.label.c_str(), file, line);
      --b.arrive_waiters;
    }
    return;
  }
  while ((b.lanes[warp] & bit) || b.phase <= b.warp_phase[warp]) park(&b, b.label.c_str(), file, line);
}

void BlockRunner::count_named_warp(unsigned id, unsigned warp) {
  NamedBarrier& b = named_[id];
  const unsigned live = live_lanes(warp);
  if (b.lanes[warp] == 0 || (b.lanes[warp] & live) != live) return;
  b.lanes[warp] = 0;
  b.warp_phase[warp] = b.phase;
  b.arrived += 32;
  if (b.arrive_waiters) wake_parked(&b.lanes[warp]);
  unsigned needed = b.threads;
  if (needed == 0) {
    for (unsigned w = 0; w < (thread_count_ + 31) / 32; ++w) needed += live_lanes(w) ? 32 : 0;
  }
  if (b.arrived < needed) return;
  // The phase completes. Lanes of warps that have not all arrived yet belong to the next one.
  b.arrived = 0;
  b.counting = false;
  for (unsigned lanes : b.lanes) b.counting |= lanes != 0;
  ++b.phase;
  group_synchronised(current_->wait_file, current_->wait_line);
  wake_parked(&b);
}

EmuThread* BlockRunner::release_named_after_exits() {
  if (!named_touched_) return nullptr;
  const unsigned before = runnable_;
  for (unsigned id = 0; id < named_.size(); ++id) {
    if (!named_[id].counting) continue;
    for (unsigned w = 0; w < (thread_count_ + 31) / 32 && named_[id].counting; ++w) count_named_warp(id, w);
  }
  if (runnable_ == before) return nullptr;
  for (unsigned i = 0; i < thread_count_; ++i) {
    if (threads_[i].state == EmuThread::State::runnable) return &threads_[i];
  }
  return nullptr;
}

}  // namespace gpulab::emu
