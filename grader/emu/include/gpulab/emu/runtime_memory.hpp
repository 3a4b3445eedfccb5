// Memory for the emulator's own objects that its headers' inline code builds while a kernel runs
// (a large tile's barriers and exchange scratch, a pipeline's stages): taken from mappings of the
// emulator's own, so the checking build never mistakes them for the program's host memory, however
// malloc shares its arenas between threads (MALLOC_ARENA_MAX, more threads than arenas).
#pragma once
#include <cstdint>
#include <memory_resource>

namespace gpulab::emu {

// A pool over the emulator's own mappings; thread-safe, never destroyed.
std::pmr::memory_resource* runtime_memory();
// Whether `a` lies in memory runtime_memory() handed out (or holds for its pools).
bool in_runtime_memory(std::uintptr_t a);

}  // namespace gpulab::emu
