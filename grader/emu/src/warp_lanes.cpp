// Warp collectives among a block's fibers: which lanes exist and are live (__activemask), and
// completing a collective once every lane of its mask has arrived (each lane's shuffle source,
// vote or match computed from the others' deposits), or reporting its misuse.
#include <algorithm>
#include <string>

#include "block_runner.hpp"
#include "checker_hooks.hpp"
#include "diagnostics.hpp"
#include "wait_names.hpp"
#include "warp_rules.hpp"

namespace gpulab::emu {

unsigned BlockRunner::existing_lanes(unsigned warp) const {
  const unsigned first = warp * 32;
  const unsigned n = std::min(32u, thread_count_ - first);
  return n == 32 ? 0xffffffffu : ((1u << n) - 1u);
}

unsigned BlockRunner::active_mask() {
  settle();
  const EmuThread* self = current_;
  const unsigned warp = self->context.warp();
  unsigned m = 0;
  for (unsigned l = 0; l < 32 && warp * 32 + l < thread_count_; ++l) {
    const unsigned i = warp * 32 + l;
    if (i >= next_unstarted_ || threads_[i].state != EmuThread::State::exited) m |= 1u << l;
  }
  return m;
}

void BlockRunner::report_warp_problem(const EmuThread& t, const std::string& what) {
  Diagnostic d;
  d.kind = "warp-misuse";
  d.severity = "error";
  d.kernel = launch_->request.kernel_name;
  d.file = t.wait_file;
  d.line = t.wait_line;
  d.block = block_label();
  d.threads = thread_label(t);
  d.message = std::string(warp_op_name(warp_of(t).op)) + " on line " + std::to_string(t.wait_line) + " in " +
              launch_->where() + ", block " + block_label() + ", thread " + thread_label(t) + ": " + what;
  report(std::move(d), cudaErrorLaunchFailure);
}

bool BlockRunner::try_complete_warp(EmuThread* self, unsigned effective) {
  const unsigned warp = self->context.warp(), base = warp * 32;
  // The lanes waiting at a collective, by bit: the arrivals before the last one read no other
  // thread's record (each a cache line of its own; reading them made the scan the most of a
  // shuffle-heavy kernel's time).
  if ((warp_arrived_[warp] & effective) != effective) return false;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(effective >> l & 1u)) continue;
    const WarpSlot& slot = warp_slots_[base + l];
    if (slot.op != warp_of(*self).op || slot.mask != warp_of(*self).mask) return false;
  }
  warp_arrived_[warp] &= ~effective;
  // Everyone is here: compute each lane's result.
  const int width = warp_of(*self).width;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(effective >> l & 1u)) continue;
    EmuThread& t = threads_[base + l];
    unsigned long long r = 0;
    const int lane = static_cast<int>(l);
    const WarpOp op = warp_of(t).op;
    if (op == WarpOp::ballot || op == WarpOp::any || op == WarpOp::all) {
      r = vote_result(op, effective, [&](unsigned k) { return warp_slots_[base + k].value != 0; });
    } else if (op == WarpOp::match_any) {
      for (unsigned k = 0; k < 32; ++k)
        if ((effective >> k & 1u) && warp_slots_[base + k].value == warp_of(t).value) r |= 1ull << k;
    }
    const int src = shuffle_source(op, lane, warp_of(t).arg, width);
    if (src >= 0) {
      if (effective >> src & 1u) {
        r = warp_slots_[base + src].value;
      } else {
        report_warp_problem(t, reads_outside_mask(lane, src, warp_of(t).mask));
        abort_block();
      }
    }
    warp_of(t).warp_result = r;
    if (&t != self) {
      t.state = EmuThread::State::runnable;
      ++runnable_;
    }
  }
  self->state = EmuThread::State::runnable;
  bump_progress();
  if (hooks_) hooks_->warp_synchronised(*this, self->context.warp(), effective);
  return true;
}

}  // namespace gpulab::emu
