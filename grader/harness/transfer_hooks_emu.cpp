// transfer_hooks.hpp on the emulator: its runtime reports every copy as it is
// made (cudaMemcpy and its forms, graph memcpy nodes as their graph runs), with
// the direction the pointers give, and a copy into host memory counts its
// bytes; and it reports host-visible memory (managed, page-locked, registered)
// as it comes and goes, what exists already included.
#include "gpulab/emu/copy_observer.hpp"
#include "harness/transfer_hooks.hpp"
#include "harness/transfer_log.hpp"

namespace gpulab::harness {
namespace {
void on_copy(void*, const void*, size_t bytes, cudaMemcpyKind kind) {
  if (kind == cudaMemcpyDeviceToHost) note_bytes_to_host("copy", bytes);
}

void on_host_visible(const void* address, size_t bytes, gpulab::emu::HostVisibleKind kind, bool exists) {
  if (!exists) {
    note_host_visible_removed(address);
    return;
  }
  switch (kind) {
    case gpulab::emu::HostVisibleKind::managed: note_host_visible_added(address, bytes, "managed_memory"); break;
    case gpulab::emu::HostVisibleKind::page_locked:
      note_host_visible_added(address, bytes, "page_locked_memory");
      break;
    case gpulab::emu::HostVisibleKind::registered: note_host_visible_added(address, bytes, "registered_memory"); break;
  }
}
}  // namespace

void install_transfer_hooks() {
  gpulab::emu::harness_observe_copies(&on_copy);
  gpulab::emu::harness_observe_host_visible(&on_host_visible);
}
}  // namespace gpulab::harness
