// transfer_hooks.hpp on the emulator: its runtime reports every copy.
#include "gpulab/emu/copy_observer.hpp"
#include "harness/transfer_hooks.hpp"
#include "harness/transfer_log.hpp"

namespace gpulab::harness {
namespace {
void on_copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToDevice: note_copy(dst, src, bytes, CopyDirection::host_to_device); break;
    case cudaMemcpyDeviceToHost: note_copy(dst, src, bytes, CopyDirection::device_to_host); break;
    case cudaMemcpyDeviceToDevice: note_copy(dst, src, bytes, CopyDirection::device_to_device); break;
    default: break;
  }
}
}  // namespace

void install_transfer_hooks() { gpulab::emu::harness_observe_copies(&on_copy); }
}  // namespace gpulab::harness
