// transfer_hooks.hpp on the emulator: its runtime reports every copy as it is
// made (cudaMemcpy and its forms, graph memcpy nodes as their graph runs), with
// the direction the pointers give; a copy into host memory counts its bytes.
#include "gpulab/emu/copy_observer.hpp"
#include "harness/transfer_hooks.hpp"
#include "harness/transfer_log.hpp"

namespace gpulab::harness {
namespace {
void on_copy(void*, const void*, size_t bytes, cudaMemcpyKind kind) {
  if (kind == cudaMemcpyDeviceToHost) note_bytes_to_host("copy", bytes);
}
}  // namespace

void install_transfer_hooks() { gpulab::emu::harness_observe_copies(&on_copy); }
}  // namespace gpulab::harness
