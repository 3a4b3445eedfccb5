// launch_kernel and launch_cooperative_kernel: check the configuration on the
// host (errors reach cudaGetLastError at once, as on a GPU) and queue the
// launch on its stream; run_launch, on the device thread, runs the grid's
// blocks (on the workers; a cooperative launch's all at once on that thread),
// then checks the guard zones of every allocation for out-of-bounds writes
// that did not fault.
#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <memory>
#include <string>
#include <vector>

#include "block_runner.hpp"
#include "checker_hooks.hpp"
#include "device_access.hpp"
#include "device_memory.hpp"
#include "device_printf.hpp"
#include "diagnostics.hpp"
#include "fault_handler.hpp"
#include "gpulab/emu/array_launch.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "launch_arguments.hpp"
#include "launch_engine.hpp"
#include "launch_replay.hpp"
#include "launch_limits.hpp"
#include "stream_capture.hpp"
#include "worker_pool.hpp"

namespace gpulab::emu {
namespace {

constexpr unsigned long long kBlocksPerRun = 16;  // the most consecutive blocks a worker takes at once

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

// Returns whether there were any.
bool report_guard_violations(const LaunchState& launch) {
  const std::vector<GuardViolation> violations = check_guards();
  for (const GuardViolation& v : violations) {
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
  return !violations.empty();
}

std::atomic<unsigned long long> launches{0};

void report_unchecked_cooperative_launch(const LaunchRequest& r) {
  Diagnostic d;
  d.kind = "not-checked";
  d.severity = "warning";
  d.kernel = r.kernel_name;
  d.file = r.file;
  d.line = r.line;
  d.message = "the cooperative launch of kernel '" + std::string(r.kernel_name) + "' at " + r.file + ":" +
              std::to_string(r.line) +
              " runs without the race check and the profiler: they follow one block at a time, and the blocks of "
              "a cooperative launch take turns at every grid.sync().";
  report(std::move(d));
}

// A grid barrier that not every block reached, or blocks waiting at different ones.
void report_grid_divergence(const LaunchState& launch, const std::vector<std::unique_ptr<BlockRunner>>& blocks,
                            const std::vector<BlockRunner::Status>& status) {
  std::vector<unsigned> finished, waiting;
  const EmuThread* site = nullptr;
  std::string other;
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (status[b] == BlockRunner::Status::finished) {
      finished.push_back(static_cast<unsigned>(b));
      continue;
    }
    const EmuThread& t = blocks[b]->first_thread();
    if (!site) site = &t;
    if (t.wait_line == site->wait_line && std::string(t.wait_file) == site->wait_file) {
      waiting.push_back(static_cast<unsigned>(b));
    } else if (other.empty()) {
      other = "; block " + std::to_string(b) + " waits at the grid.sync() on line " + std::to_string(t.wait_line);
    }
  }
  if (!site) return;  // no block waits: nothing diverged
  Diagnostic d;
  d.kind = "barrier-divergence";
  d.severity = "error";
  d.kernel = launch.request.kernel_name;
  d.file = site->wait_file;
  d.line = site->wait_line;
  d.message = "grid barrier divergence in " + launch.where() + ": blocks (by rank) " + format_ranks(waiting) +
              " wait at grid.sync() on line " + std::to_string(site->wait_line) + other +
              (finished.empty() ? std::string()
                                : "; blocks (by rank) " + format_ranks(finished) + " finished without reaching it") +
              ". Every thread of every block must reach the same grid.sync(); keep it out of conditions that "
              "differ between blocks or threads. On a GPU this hangs.";
  report(std::move(d), cudaErrorLaunchFailure);
}

// The blocks of a cooperative launch, all alive at once: each runs (on this
// worker, one after another) until all its threads wait at grid.sync(); when
// every block waits at the same one, all are released, and so on until they
// finish. The checking runtime does not follow these blocks (their turns
// would interleave its per-block state); a note says so.
void run_cooperative_blocks(LaunchState& launch) {
  const unsigned n = static_cast<unsigned>(launch.total_blocks);
  std::vector<std::unique_ptr<BlockRunner>> blocks(n);
  std::vector<BlockRunner::Status> status(n, BlockRunner::Status::at_grid_barrier);
  install_fault_handler_for_this_thread();
  if (sigsetjmp(*worker_recovery_point(), 1) != 0) {
    set_recovery_armed(false);
    for (auto& b : blocks) {
      if (b) queue_device_output(b->take_printf());
    }
    return;
  }
  set_recovery_armed(true);
  // Every thread of the grid may wait at once, each on a stack of its own: guard pages
  // only while their mappings stay well below Linux's limit (see fiber_stacks.hpp).
  const bool guard_pages = launch.total_blocks * (launch.threads_per_block + 1) <= 16384;
  for (unsigned b = 0; b < n; ++b) {
    blocks[b] = std::make_unique<BlockRunner>(launch.threads_per_block, launch.shared_limit, guard_pages);
    blocks[b]->start_block(launch, b);
  }
  for (;;) {
    bool any_waiting = false, any_finished = false;
    for (unsigned b = 0; b < n && !launch.aborted.load(); ++b) {
      if (status[b] == BlockRunner::Status::finished) continue;
      status[b] = blocks[b]->resume();
      queue_device_output(blocks[b]->take_printf());
      if (status[b] == BlockRunner::Status::aborted) launch.aborted.store(true);
    }
    if (launch.aborted.load()) break;
    const EmuThread* site = nullptr;
    bool same_site = true;
    for (unsigned b = 0; b < n; ++b) {
      if (status[b] == BlockRunner::Status::finished) {
        any_finished = true;
        continue;
      }
      any_waiting = true;
      const EmuThread& t = blocks[b]->first_thread();
      if (!site) site = &t;
      same_site &= t.wait_line == site->wait_line && std::string(t.wait_file) == site->wait_file;
    }
    if (!any_waiting) break;
    if (any_finished || !same_site) {
      report_grid_divergence(launch, blocks, status);
      launch.aborted.store(true);
      break;
    }
    for (unsigned b = 0; b < n; ++b) blocks[b]->release_grid_barrier();
  }
  set_recovery_armed(false);
}

void run_blocks_on_this_worker(LaunchState& launch) {
  install_fault_handler_for_this_thread();
  allow_device_access_on_this_thread();
  BlockRunner& runner = this_worker_runner();
  if (sigsetjmp(*worker_recovery_point(), 1) != 0) {
    // A GPU thread faulted; the handler reported it and aborted the launch. The signal's delivery
    // closed device memory to this thread (protection keys): what follows (guard check) reads it.
    allow_device_access_on_this_thread();
    set_recovery_armed(false);
    queue_device_output(runner.take_printf());
    return;
  }
  set_recovery_armed(true);
  // Blocks are taken in runs of consecutive ones, a run per worker at a time (at most 1/16 of an
  // even share, so that the workers still finish together): neighbouring blocks touch
  // neighbouring memory, and a cache line (or a prefetched one) that two cores keep writing
  // costs more than the work of a short kernel's block.
  const unsigned long long run =
      std::clamp<unsigned long long>(launch.total_blocks / (16ull * worker_count()), 1, kBlocksPerRun);
  while (!launch.aborted.load(std::memory_order_relaxed)) {
    const unsigned long long first = launch.next_block.fetch_add(run, std::memory_order_relaxed);
    if (first >= launch.total_blocks) break;
    const unsigned long long last = std::min(first + run, launch.total_blocks);
    for (unsigned long long b = first; b < last && !launch.aborted.load(std::memory_order_relaxed); ++b) {
      const bool ok = runner.run_block(launch, b);
      queue_device_output(runner.take_printf());
      if (!ok) launch.aborted.store(true);
    }
  }
  set_recovery_armed(false);
}

// One whole launch, start to end, on the device thread: runs every block, checks the guard zones.
void run_checked_launch(const LaunchRequest& request, const KernelBody& body, bool cooperative) {
  if (device_failed()) return;  // as on a GPU: nothing runs once a kernel has failed
  // The kernel's threads, the replay's hashing and the guard check read and write device memory
  // (device_access.hpp): open to the workers for the launch, to no host thread (protection keys),
  // or open until it ends (toggled).
  const DeviceAccess access;
  LaunchState launch;
  launch.request = request;
  launch.body = body;
  launch.context = LaunchContext{request.grid, request.block, request.kernel_name,
                                 request.file, request.line,  request.dynamic_shared_bytes,
                                 cooperative};
  launch.threads_per_block = request.block.x * request.block.y * request.block.z;
  launch.total_blocks = 1ull * request.grid.x * request.grid.y * request.grid.z;
  launch.shared_limit = block_shared_limit(request.dynamic_shared_bytes);

  // A repeat of an earlier launch on the same device state is replayed instead of run, cooperative
  // launches too (a benchmark loop of grid-synchronised reductions); never in the checking build,
  // which must see every access.
  // A pointer argument into host memory a GPU cannot reach fails the launch as the kernel's first
  // access would on a GPU (launch_arguments.hpp); the checking build sees such accesses itself.
  if (refuse_host_pointer_arguments(launch, checker_hooks && checker_hooks->checks_host_accesses && !cooperative))
    return;
  bool watched = false;
  if (!checker_hooks && replay_launch(launch, watched)) return;
  if (checker_hooks) checker_hooks->launch_begin(launch);
  if (cooperative) {
    if (checker_hooks) report_unchecked_cooperative_launch(request);
    run_cooperative_blocks(launch);
  } else if (checker_hooks && checker_hooks->serialise_blocks) {
    run_blocks_on_this_worker(launch);
  } else {
    run_on_workers([&launch](unsigned) { run_blocks_on_this_worker(launch); });
  }
  if (checker_hooks) checker_hooks->launch_end(launch);
  const bool overran = report_guard_violations(launch);
  if (watched) {
    replay_finish(launch,
                  !overran && !launch.aborted.load() && !launch.device_error_reported.load() && !device_failed());
  } else {
    replay_forget_device_state();  // what this launch wrote is not known
  }
}

// The host's side of a launch: the configuration checked at once, the launch queued on its stream.
cudaError_t queue_launch(const LaunchRequest& request, const KernelBody& body, bool cooperative) {
  flush_device_output();  // a launch flushes the printf output of the kernels that have finished
  if (device_failed()) return sticky_error();
  LaunchCheck check = check_launch_configuration(request, max_dynamic_shared_bytes());
  if (check.error == cudaSuccess && cooperative) check = check_cooperative_launch(request);
  if (check.error != cudaSuccess) {
    report_launch_error(request, check);
    return check.error;
  }
  launches.fetch_add(1);
  submit(request.stream, [request, body, cooperative] { run_checked_launch(request, body, cooperative); });
  return cudaSuccess;
}
}  // namespace

unsigned long long launch_count() { return launches.load(); }

void run_launch(const LaunchRequest& request, const KernelBody& body) { run_checked_launch(request, body, false); }

cudaError_t check_launch(const LaunchRequest& request) {
  const LaunchCheck check = check_launch_configuration(request, max_dynamic_shared_bytes());
  if (check.error != cudaSuccess) report_launch_error(request, check);
  return check.error;
}

void launch_kernel(const LaunchRequest& request, const KernelBody& body) { queue_launch(request, body, false); }

cudaError_t launch_cooperative_kernel(const LaunchRequest& request, const KernelBody& body) {
  return queue_launch(request, body, true);
}

cudaError_t launch_kernel_checked(const LaunchRequest& request, const KernelBody& body) {
  return queue_launch(request, body, false);
}

cudaError_t reject_unknown_kernel_address(const char* api, const char* call, const char* file, int line) {
  Diagnostic d;
  d.kind = "launch-config";
  d.severity = "error";
  d.kernel = kernel_as_written(call);
  d.file = file;
  d.line = line;
  d.message = std::string(api) + "(" + d.kernel + ", ...) at " + file + ":" + std::to_string(line) +
              ": no kernel the emulator knows is at that address. The emulator knows every non-template kernel "
              "defined in the program's .cu files and their local headers, and every kernel the program casts to "
              "a void* by its name (`(void*)k<float>`); this address is neither: a host function, a pointer to "
              "data, or a kernel that reached the void* through a function-pointer variable. Pass the kernel by "
              "its name, e.g. " +
              api + "((void*)k<float>, grid, block, args) or " + api +
              "(k<float>, grid, block, args) (valid CUDA too). The kernel did not run.";
  report(std::move(d));
  return set_last_error(cudaErrorInvalidDeviceFunction);
}

}  // namespace gpulab::emu
