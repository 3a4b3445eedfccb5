// The host-visible memory that exists (managed allocations, page-locked and
// registered host memory), kept for the harness's observer
// (gpulab/emu/copy_observer.hpp): the allocators report each piece as it
// comes and goes, and a new observer hears what exists already.
#pragma once
#include <cstddef>

#include "gpulab/emu/copy_observer.hpp"

namespace gpulab::emu {

void note_host_visible(const void* address, size_t bytes, HostVisibleKind kind);
void note_host_visible_gone(const void* address);

}  // namespace gpulab::emu
