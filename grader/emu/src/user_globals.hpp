// The program's own writable variables (`__device__`, `__constant__`, `__managed__` and plain
// globals of its files and headers): kernels may read and write them, so a launch replay
// (launch_replay.hpp) counts them as device state. Read once from the executable's symbol
// table: every data object in a writable section, except the emulator's own (namespace
// gpulab), which change as it runs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gpulab::emu {

struct MemoryRange {
  uintptr_t begin = 0;
  size_t size = 0;
};

// Merged, in address order. nullopt when the executable has no symbol table to read
// (stripped): then nothing can be said about what a kernel may write.
const std::optional<std::vector<MemoryRange>>& user_globals();

}  // namespace gpulab::emu
