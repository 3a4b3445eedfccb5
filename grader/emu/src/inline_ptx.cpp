// The out-of-line halves of inline PTX (include/gpulab/emu/inline_ptx.hpp): %globaltimer, the
// shared-memory window of cvta.to.shared / ld.shared / cp.async, and bar.sync / bar.arrive
// (barrier 0 over the whole block is __syncthreads(); others are named barriers).
#include "gpulab/emu/inline_ptx.hpp"

#include <chrono>
#include <cstdio>
#include <string>

#include "block_runner.hpp"
#include "launch_replay.hpp"
#include "launch_state.hpp"

namespace gpulab::emu::ptx {
namespace {

// The running block's shared memory: [base, base + size). Empty outside a kernel.
struct SharedWindow {
  std::uint64_t base = 0;
  std::uint64_t size = 0;
};
SharedWindow shared_window() {
  const BlockRunner* r = running_block_runner();
  if (!r || !r->launch() || !gpulab_emu_block) return {};
  return {reinterpret_cast<std::uint64_t>(gpulab_emu_block->dynamic_shared), r->launch()->shared_limit};
}

std::string hex(std::uint64_t v) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
  return text;
}

}  // namespace

unsigned long long global_timer() {
  note_impure_launch();
  return static_cast<unsigned long long>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

std::uint64_t to_shared_window(std::uint64_t generic, const char* file, int line) {
  const SharedWindow w = shared_window();
  if (generic - w.base >= w.size) {
    const std::string what = "inline PTX: cvta.to.shared of the address " + hex(generic) +
                             ", which is not in this block's shared memory (a __shared__ variable or dynamic shared "
                             "memory of the block). Namespace-scope __shared__ variables have no shared-memory "
                             "address on the emulator: declare the variable inside the kernel";
    device_misuse("inline-ptx", what.c_str(), file, line);
    return 0;
  }
  return generic - w.base;
}

std::uint64_t from_shared_window(std::uint64_t shared, const char* file, int line) {
  const SharedWindow w = shared_window();
  if (shared >= w.size) {
    const std::string what = "inline PTX: the shared-memory address " + hex(shared) + " is outside the " +
                             std::to_string(w.size) +
                             " bytes a block's shared memory spans: a .shared access (ld.shared, st.shared, "
                             "cp.async) takes an address from cvta.to.shared (or __cvta_generic_to_shared), not a "
                             "pointer";
    device_misuse("inline-ptx", what.c_str(), file, line);
    return 0;
  }
  return w.base + shared;
}

void bar_sync(std::uint32_t id, std::uint32_t threads, bool has_threads, bool wait, const char* file, int line) {
  block_named_barrier(id, threads, has_threads, wait, false, file, line);
}

}  // namespace gpulab::emu::ptx
