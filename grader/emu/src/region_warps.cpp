// Warp collectives in the region form (gpulab/emu/thread_regions.hpp, RegionBlock::warp): every
// thread of the block reached the collective together and left its value and lane or delta; this
// works out each thread's result over its warp with the fibers' rules (warp_rules.hpp), and
// reports a misuse with the fibers' words and in their order: lane by lane of each warp, a lane
// missing from the mask or a bad width as it arrives, then, once the mask's lanes are all there, a
// lane reading one outside the mask. Blocks with a partial last warp never get here
// (RegionBlock::begin): their fibers decide.
#include <algorithm>
#include <string>

#include "block_runner.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/thread_regions.hpp"
#include "thread_ranks.hpp"
#include "wait_names.hpp"
#include "warp_rules.hpp"

namespace gpulab::emu {

void BlockRunner::region_warp_problem(unsigned rank, WarpOp op, const char* file, int line, const std::string& what) {
  const ThreadContext c = context_of_rank(rank, launch_->request.block);
  const std::string thread = format_index(c.thread_idx.x, c.thread_idx.y, c.thread_idx.z);
  Diagnostic d;
  d.kind = "warp-misuse";
  d.severity = "error";
  d.kernel = launch_->request.kernel_name;
  d.file = file;
  d.line = line;
  d.block = block_label();
  d.threads = thread;
  d.message = std::string(warp_op_name(op)) + " on line " + std::to_string(line) + " in " + launch_->where() +
              ", block " + block_label() + ", thread " + thread + ": " + what;
  sweep_context_.linear = rank;  // reports made while the block ends name this thread
  report(std::move(d), cudaErrorLaunchFailure);
  abort_block();
}

void RegionBlock::warp(WarpOp op, unsigned mask, int width, const unsigned long long* values, const int* lanes,
                       unsigned long long* out, const char* file, int line) const {
  BlockRunner* r = running_block_runner();
  const bool width_ok = valid_width(width);
  for (unsigned base = 0; base < threads_; base += 32) {
    const unsigned n = std::min(32u, threads_ - base);
    const unsigned effective = mask & (n == 32 ? 0xffffffffu : (1u << n) - 1u);
    const unsigned last = effective == 0 ? 32u : 31u - static_cast<unsigned>(__builtin_clz(effective));
    for (unsigned l = 0; l < n; ++l) {  // the lanes arrive in order
      if (!(mask >> l & 1u)) {
        r->region_warp_problem(base + l, op, file, line, lane_not_in_mask(mask, l));
      }
      if (!width_ok) r->region_warp_problem(base + l, op, file, line, bad_width(width));
      if (l != last) continue;
      // The mask's last lane is here: every lane of the mask gets its result.
      for (unsigned k = 0; k < 32; ++k) {
        if (!(effective >> k & 1u)) continue;
        unsigned long long v = 0;
        if (op == WarpOp::ballot || op == WarpOp::any || op == WarpOp::all) {
          v = vote_result(op, effective, [&](unsigned j) { return values[base + j] != 0; });
        } else if (op != WarpOp::sync) {  // a shuffle (__syncwarp leaves no lanes)
          const int src = shuffle_source(op, static_cast<int>(k), lanes[base + k], width);
          if (src >= 0 && src < 32 && (effective >> src & 1u)) {
            v = values[base + static_cast<unsigned>(src)];
          } else if (src >= 0) {
            r->region_warp_problem(base + k, op, file, line, reads_outside_mask(static_cast<int>(k), src, mask));
          }
        }
        if (out) out[base + k] = v;
      }
    }
  }
}

}  // namespace gpulab::emu
