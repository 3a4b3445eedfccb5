// Memory a graph allocates (an alloc node added by hand, or cudaMallocAsync captured from a
// stream). On a GPU such an allocation keeps its address from one launch of the graph to the next
// and is mapped while the graph (or the program, when the graph does not free it) uses it. Here it
// is allocated once, when the node is made, and stays: a free node, cudaFree or cudaFreeAsync of it
// marks it free without giving the memory back, so that the next launch of the graph finds it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpulab::emu {

// Allocates `bytes` for a graph; null when the memory is not there.
void* allocate_graph_memory(size_t bytes, const char* api, const char* file, int line);
bool is_graph_memory(const void* ptr);  // the start of an allocation made by allocate_graph_memory
void mark_graph_memory(const void* ptr, bool in_use);
// Bytes of graph memory in use (allocated and not freed since) and reserved (all of it).
std::uint64_t graph_memory_in_use();
std::uint64_t graph_memory_reserved();

}  // namespace gpulab::emu
