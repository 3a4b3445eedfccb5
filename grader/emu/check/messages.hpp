// The checker's reports, in the GPU's own terms: kernel, block, threads, which
// memory (a __shared__ variable by its declaration line, dynamic shared memory,
// or a cudaMalloc allocation by its origin) at which byte offset, and why the
// two accesses are not ordered.
#pragma once
#include <cstddef>
#include <cstdint>

#include "access.hpp"
#include "host_regions.hpp"
#include "session.hpp"

namespace gpulab::emu::check {

// `earlier` and `later` conflict on the byte at `address`.
void report_race(Session& s, uintptr_t address, size_t size, bool shared, const Access& earlier, const Access& later);
// An access of `size` bytes at `address` outside `allocation` (null: past the block's shared memory).
void report_out_of_bounds(Session& s, uintptr_t address, size_t size, bool write, const DeviceAllocation* allocation,
                          uint16_t thread);
// An access of `size` bytes at `address`, in host memory a GPU cannot reach (`region`), by the code at
// `pc`: an illegal address on a GPU, so it also fails the launch with cudaErrorIllegalAddress.
void report_host_access(Session& s, uintptr_t address, size_t size, bool write, HostRegion region, uint16_t thread,
                        uintptr_t pc);
// A read of shared memory at `address` that no thread of the block wrote before.
void report_uninitialised(Session& s, uintptr_t address, size_t size, uint16_t thread);

}  // namespace gpulab::emu::check
