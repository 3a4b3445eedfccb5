// What a block does when none of its threads can run: release the barrier every live thread
// waits at (with the __syncthreads_count/_and/_or result), park the block at a grid barrier, or
// report who waits where (barrier divergence, a warp collective missing lanes, a cuda::barrier
// or named barrier phase that cannot complete).
#include <cstring>
#include <map>
#include <tuple>

#include "block_runner.hpp"
#include "checker_hooks.hpp"
#include "diagnostics.hpp"
#include "wait_names.hpp"

namespace gpulab::emu {

EmuThread* BlockRunner::resolve_stall() {
  // Reached only when nothing is runnable, so every thread has started (an
  // unstarted one counts as runnable) and no record below is stale.
  if (EmuThread* t = release_coalesced()) return t;
  if (EmuThread* t = release_named_after_exits()) return t;  // warps whose other lanes have exited
  // Every live thread waits. If all of them wait at the same barrier, release it.
  EmuThread* first = nullptr;
  bool same = live_ == thread_count_ && next_unstarted_ == thread_count_;
  for (unsigned i = 0; i < thread_count_ && same; ++i) {
    EmuThread& t = threads_[i];
    if (t.state != EmuThread::State::at_barrier) {
      same = false;
    } else if (!first) {
      first = &t;
    } else if (t.wait_line != first->wait_line || t.barrier_kind != first->barrier_kind ||
               (t.wait_file != first->wait_file && std::strcmp(t.wait_file, first->wait_file) != 0)) {
      same = false;
    }
  }
  if (!same || !first) {
    report_stall();
    launch_->aborted.store(true);
    return nullptr;
  }
  if (first->barrier_kind == BarrierKind::grid) {
    grid_parked_ = true;  // the whole block is at the grid barrier: the launch releases it with the others
    return nullptr;
  }
  int result = 0;
  for (unsigned i = 0; i < thread_count_; ++i) {
    const int p = threads_[i].predicate != 0;
    switch (first->barrier_kind) {
      case BarrierKind::count: result += p; break;
      case BarrierKind::all: result = (i == 0 ? p : (result && p)); break;
      case BarrierKind::any: result = result || p; break;
      default: break;
    }
  }
  for (unsigned i = 0; i < thread_count_; ++i) {
    threads_[i].state = EmuThread::State::runnable;
    threads_[i].barrier_result = result;
  }
  runnable_ = thread_count_;
  ++barrier_epoch_;
  bump_progress();
  if (hooks_) hooks_->barrier_released(*this);
  return &threads_[0];
}

void BlockRunner::report_stall() {
  // Group the threads by what they are doing, to say who diverged where.
  std::map<std::tuple<std::string, int, std::string>, std::vector<unsigned>> groups;
  std::vector<unsigned> exited;
  for (unsigned i = 0; i < next_unstarted_; ++i) {  // records from next_unstarted_ on are stale
    const EmuThread& t = threads_[i];
    if (t.state == EmuThread::State::exited) {
      exited.push_back(i);
    } else if (t.state == EmuThread::State::at_barrier) {
      groups[{t.wait_file, t.wait_line, barrier_name(t.barrier_kind)}].push_back(i);
    } else if (t.state == EmuThread::State::at_warp) {
      groups[{t.wait_file, t.wait_line, warp_op_name(warp_of(t).op)}].push_back(i);
    } else if (t.state == EmuThread::State::parked) {
      groups[{t.wait_file, t.wait_line, parked_on_[i].what}].push_back(i);
    }
  }
  bool any_warp = false;
  bool any_parked = false;
  bool any_named = false;  // parked at a named barrier (its phase, or its warp's other lanes)
  const auto* named_begin = reinterpret_cast<const unsigned char*>(named_.data());
  for (unsigned i = 0; i < next_unstarted_; ++i) {
    any_warp |= threads_[i].state == EmuThread::State::at_warp;
    any_parked |= threads_[i].state == EmuThread::State::parked;
    const auto* on = static_cast<const unsigned char*>(parked_on_[i].object);
    any_named |=
        threads_[i].state == EmuThread::State::parked && on >= named_begin && on < named_begin + sizeof(named_);
  }

  Diagnostic d;
  d.severity = "error";
  d.kernel = launch_->request.kernel_name;
  d.block = block_label();
  std::string parts;
  int first_line = 0;
  std::string first_file;
  for (const auto& [key, ranks] : groups) {
    if (!parts.empty()) parts += "; ";
    parts += (ranks.size() == 1 ? "thread " + format_ranks(ranks) + " waits at "
                                : "threads " + format_ranks(ranks) + " wait at ") +
             std::get<2>(key) + " on line " + std::to_string(std::get<1>(key));
    if (!first_line) {
      first_line = std::get<1>(key);
      first_file = std::get<0>(key);
    }
  }
  if (exited.size() == 1) parts += "; thread " + format_ranks(exited) + " has already exited";
  if (exited.size() > 1) parts += "; threads " + format_ranks(exited) + " have already exited";
  d.file = first_file;
  d.line = first_line;
  if (any_parked && !any_warp) {
    d.kind = "barrier-deadlock";
    d.message = "a barrier can never complete in " + launch_->where() + ", block " + block_label() + ": " + parts +
                (any_named ? ". A named barrier (bar.sync / bar.arrive id, count, __barrier_sync_count) completes "
                             "when `count` threads have arrived, counted in whole warps (a warp arrives when all "
                             "its lanes that have not exited are there): check the count, and that every lane of "
                             "those warps gets there and none waits elsewhere first."
                           : ". A cuda::barrier phase (or a pipeline stage, or the sync of a tile larger than a "
                             "warp) completes only when every thread it expects has arrived: check the count "
                             "given to init() and that no expected thread exits, returns early or waits elsewhere "
                             "first.") +
                " On a GPU this hangs.";
  } else if (any_warp) {
    d.kind = "warp-deadlock";
    d.message = "warp collective cannot complete in " + launch_->where() + ", block " + block_label() + ": " + parts +
                ". Every lane named in a *_sync mask must reach the same call; use __activemask() or a mask "
                "of the lanes that really take this branch.";
  } else {
    d.kind = "barrier-divergence";
    d.message = "barrier divergence in " + launch_->where() + ", block " + block_label() + ": " + parts +
                ". Every thread of a block must reach the same __syncthreads(); keep barriers out of "
                "conditions that differ between threads (guard the work, not the barrier, and do not "
                "return early before a barrier). On a GPU this hangs or silently gives wrong results.";
  }
  d.threads = format_ranks([&] {
    std::vector<unsigned> all;
    for (unsigned i = 0; i < thread_count_; ++i) all.push_back(i);
    return all;
  }());
  report(std::move(d), cudaErrorLaunchFailure);
}

}  // namespace gpulab::emu
