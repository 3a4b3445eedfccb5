// launch_kernel: checks the configuration on the host (errors reach
// cudaGetLastError at once, as on a GPU) and queues the launch on its stream;
// run_launch, on the device thread, runs the grid's blocks on the workers,
// then checks the guard zones of every allocation for out-of-bounds writes
// that did not fault.
#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <string>

#include "block_runner.hpp"
#include "checker_hooks.hpp"
#include "device_memory.hpp"
#include "device_printf.hpp"
#include "diagnostics.hpp"
#include "fault_handler.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "launch_engine.hpp"
#include "launch_limits.hpp"
#include "stream_capture.hpp"
#include "worker_pool.hpp"

namespace gpulab::emu {
namespace {

void report_launch_error(const LaunchRequest& r, const LaunchCheck& check) {
  Diagnostic d;
  d.kind = "launch-config";
  d.severity = "error";
  d.kernel = r.kernel_name;
  d.file = r.file;
  d.line = r.line;
  d.message = "launch of kernel '" + std::string(r.kernel_name) + "' at " + r.file + ":" + std::to_string(r.line) +
              " failed: " + check.reason + "; the kernel did not run (" + cudaGetErrorName(check.error) +
              " from cudaGetLastError).";
  report(std::move(d));
  set_last_error(check.error);
}

void report_guard_violations(const LaunchState& launch) {
  for (const GuardViolation& v : check_guards()) {
    Diagnostic d;
    d.kind = "out-of-bounds";
    d.severity = "error";
    d.kernel = launch.request.kernel_name;
    d.file = launch.request.file;
    d.line = launch.request.line;
    const long long size = static_cast<long long>(v.allocation.size);
    std::string where;
    if (v.first_offset >= size) {
      where = "bytes " + std::to_string(v.first_offset - size) + " to " + std::to_string(v.last_offset - size) +
              " past the end of";
    } else {
      where = std::to_string(-v.first_offset) + " bytes before the start of";
    }
    d.message = "out-of-bounds write in " + launch.where() + ": " + where + " the " + std::to_string(size) +
                "-byte allocation made by " + v.allocation.api + " at " + v.allocation.origin +
                " were overwritten. Some thread's index ran past the array: check the bounds test (e.g. `if (i < "
                "n)`) before every store.";
    report(std::move(d), cudaErrorIllegalAddress);
  }
}

std::atomic<unsigned long long> launches{0};
}  // namespace

unsigned long long launch_count() { return launches.load(); }

// Runs one whole launch to completion (on the device thread, or wherever a synchronous launch is wanted).
void run_launch(const LaunchRequest& request, const KernelBody& body) {
  if (device_failed()) return;  // as on a GPU: nothing runs once a kernel has failed
  LaunchState launch;
  launch.request = request;
  launch.body = body;
  launch.context = LaunchContext{request.grid, request.block, request.kernel_name, request.file, request.line,
                                 request.dynamic_shared_bytes};
  launch.threads_per_block = request.block.x * request.block.y * request.block.z;
  launch.total_blocks = 1ull * request.grid.x * request.grid.y * request.grid.z;
  launch.shared_limit = std::max<size_t>(48 * 1024, max_dynamic_shared_bytes());

  if (checker_hooks) checker_hooks->launch_begin(launch);
  const auto run_blocks = [&launch](unsigned) {
    install_fault_handler_for_this_thread();
    BlockRunner& runner = this_worker_runner();
    if (sigsetjmp(*worker_recovery_point(), 1) != 0) {
      // A GPU thread faulted; the handler reported it and aborted the launch.
      set_recovery_armed(false);
      queue_device_output(runner.take_printf());
      return;
    }
    set_recovery_armed(true);
    while (!launch.aborted.load(std::memory_order_relaxed)) {
      const unsigned long long b = launch.next_block.fetch_add(1, std::memory_order_relaxed);
      if (b >= launch.total_blocks) break;
      const bool ok = runner.run_block(launch, b);
      queue_device_output(runner.take_printf());
      if (!ok) launch.aborted.store(true);
    }
    set_recovery_armed(false);
  };
  if (checker_hooks && checker_hooks->serialise_blocks) {
    run_blocks(0);
  } else {
    run_on_workers(run_blocks);
  }
  if (checker_hooks) checker_hooks->launch_end(launch);
  report_guard_violations(launch);
}

void launch_kernel(const LaunchRequest& request, const KernelBody& body) {
  flush_device_output();  // a launch flushes the printf output of the kernels that have finished
  if (device_failed()) return;
  const LaunchCheck check = check_launch_configuration(request, max_dynamic_shared_bytes());
  if (check.error != cudaSuccess) {
    report_launch_error(request, check);
    return;
  }
  launches.fetch_add(1);
  submit(request.stream, [request, body] { run_launch(request, body); });
}

}  // namespace gpulab::emu
