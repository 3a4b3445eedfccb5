// The checks made at every memory access of a GPU thread: bounds against the
// live allocations and the block's shared memory, uninitialised shared reads,
// and conflicts with the accesses recorded in shadow memory (data races).
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpulab::emu::check {

// Called by the entry points with tl_active already cleared; `flags` are AccessFlags.
void record_access(uintptr_t address, size_t size, uint8_t flags, uintptr_t pc);

}  // namespace gpulab::emu::check
