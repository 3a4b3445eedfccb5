// The out-of-line halves of the device built-ins declared in the headers:
// barriers, warp collectives, shared memory, fences, clocks, traps and
// misused device built-ins (async_copy.hpp).
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "block_runner.hpp"
#include "checker_hooks.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/async_copy.hpp"
#include "gpulab/emu/device_math.hpp"
#include "gpulab/emu/shared_memory.hpp"

namespace gpulab::emu {

void warp_barrier(unsigned mask, const char* file, int line) {
  running_block_runner()->warp_collective(WarpOp::sync, mask, 0, 0, 32, file, line);
}
unsigned active_mask() { return running_block_runner()->active_mask(); }
void* allocate_static_shared(size_t bytes, size_t alignment, const char* file, int line) {
  return running_block_runner()->allocate_static_shared(bytes, alignment, file, line);
}
void thread_fence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (checker_hooks) {
    if (BlockRunner* r = running_block_runner()) checker_hooks->thread_fence(*r);
  }
}

CheckerHooks* checker_hooks = nullptr;

long long device_clock() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
void device_nanosleep(unsigned ns) { std::this_thread::sleep_for(std::chrono::nanoseconds(ns)); }

void device_trap(const char* file, int line) {
  BlockRunner* r = running_block_runner();
  Diagnostic d;
  d.kind = "trap";
  d.severity = "error";
  d.file = file;
  d.line = line;
  if (r && r->launch()) {
    d.kernel = r->launch()->request.kernel_name;
    d.block = r->block_label();
    d.threads = r->current() ? r->thread_label(*r->current()) : "";
    d.message = "__trap() on line " + std::to_string(line) + " in " + r->launch()->where() + ", block " + d.block +
                ", thread " + d.threads + ".";
    report(std::move(d), cudaErrorLaunchFailure);
    r->abort_block();
  }
  d.message = "__trap() called outside a kernel at " + std::string(file) + ":" + std::to_string(line);
  report(std::move(d), cudaErrorLaunchFailure);
}

void device_misuse(const char* kind, const char* what, const char* file, int line) {
  BlockRunner* r = running_block_runner();
  Diagnostic d;
  d.kind = kind;
  d.severity = "error";
  d.file = file;
  d.line = line;
  if (r && r->launch()) {
    d.kernel = r->launch()->request.kernel_name;
    d.block = r->block_label();
    d.threads = r->current() ? r->thread_label(*r->current()) : "";
    d.message = std::string(what) + " (line " + std::to_string(line) + " in " + r->launch()->where() + ", block " +
                d.block + ", thread " + d.threads + ").";
    report(std::move(d), cudaErrorLaunchFailure);
    r->abort_block();
  }
  d.message = std::string(what) + " (called outside a kernel at " + file + ":" + std::to_string(line) + ")";
  report(std::move(d), cudaErrorLaunchFailure);
}

}  // namespace gpulab::emu
