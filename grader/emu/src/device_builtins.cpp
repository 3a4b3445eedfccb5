// The out-of-line halves of the device built-ins declared in the headers:
// barriers, warp collectives, shared memory, fences, clocks, traps and
// misused device built-ins (async_copy.hpp).
#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "block_runner.hpp"
#include "checker_hooks.hpp"
#include "diagnostics.hpp"
#include "launch_replay.hpp"
#include "gpulab/emu/async_copy.hpp"
#include "gpulab/emu/device_math.hpp"
#include "gpulab/emu/shared_memory.hpp"

namespace gpulab::emu {

void warp_barrier(unsigned mask, const char* file, int line) {
  running_block_runner()->warp_collective(WarpOp::sync, mask, 0, 0, 32, file, line);
}
unsigned active_mask() { return running_block_runner()->active_mask(); }
void* allocate_static_shared(size_t bytes, size_t alignment, const char* file, int line, const void* key) {
  return running_block_runner()->allocate_static_shared(bytes, alignment, file, line, key);
}
void thread_fence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (checker_hooks) {
    BlockRunner* r = running_block_runner();
    if (r && r->checked()) checker_hooks->thread_fence(*r);
  }
}

CheckerHooks* checker_hooks = nullptr;

long long device_clock() {
  note_impure_launch();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
void device_nanosleep(unsigned ns) {
  note_impure_launch();
  std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}

namespace {
// Reports a device-side error at file:line: inside a kernel with its kernel, block and thread
// (`in_kernel` gets "line N in <launch>, block B, thread T"), and ends the block; only the
// launch's first such error is reported. Outside a kernel (`outside` is the whole message) it is
// only reported.
void report_device_error(const char* kind, const char* file, int line,
                         const std::function<std::string(const std::string&)>& in_kernel, const std::string& outside) {
  BlockRunner* r = running_block_runner();
  Diagnostic d;
  d.kind = kind;
  d.severity = "error";
  d.file = file;
  d.line = line;
  if (r && r->launch()) {
    if (r->launch()->device_error_reported.exchange(true)) {
      r->abort_block();
      return;
    }
    d.kernel = r->launch()->request.kernel_name;
    d.block = r->block_label();
    d.threads = r->running_thread_label();
    d.message = in_kernel("line " + std::to_string(line) + " in " + r->launch()->where() + ", block " + d.block +
                          ", thread " + d.threads);
    report(std::move(d), cudaErrorLaunchFailure);
    r->abort_block();
  }
  d.message = outside;
  report(std::move(d), cudaErrorLaunchFailure);
}
}  // namespace

void device_trap(const char* file, int line) {
  report_device_error(
      "trap", file, line, [](const std::string& where) { return "__trap() on " + where + "."; },
      "__trap() called outside a kernel at " + std::string(file) + ":" + std::to_string(line));
}

void device_misuse(const char* kind, const char* what, const char* file, int line) {
  report_device_error(
      kind, file, line, [what](const std::string& where) { return std::string(what) + " (" + where + ")."; },
      std::string(what) + " (called outside a kernel at " + file + ":" + std::to_string(line) + ")");
}

bool grid_is_valid() {
  // In any kernel, as on a GPU (an H200 with CUDA 13 gives 1 in a plain launch
  // too; tests/gpu/expected/probe_coop_groups.txt): only grid.sync() needs a
  // cooperative launch.
  return running_block_runner() != nullptr;
}

void grid_sync(const char* file, int line) {
  const BlockRunner* r = running_block_runner();
  if (!(r && r->launch() && r->launch()->context.cooperative)) {
    device_misuse("grid-sync",
                  "grid.sync() in a kernel that was not launched with cudaLaunchCooperativeKernel: only a "
                  "cooperative launch keeps every block of the grid resident at once, so on a GPU "
                  "the sync is undefined here (it hangs or traps). Launch "
                  "the kernel with cudaLaunchCooperativeKernel, or split it into two kernels at this line",
                  file, line);
    return;
  }
  block_barrier(BarrierKind::grid, 1, file, line);
}

}  // namespace gpulab::emu
