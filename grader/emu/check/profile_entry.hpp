// The profiler's entry point from the __tsan_* functions (see profile_entry.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpulab::emu::check {

// Called with tl_active already cleared; `flags` are AccessFlags.
void profile_access(uintptr_t address, size_t size, uint8_t flags, uintptr_t pc);

}  // namespace gpulab::emu::check
