// The memory graphs allocate (see graph_memory.hpp).
#include "graph_memory.hpp"

#include <map>
#include <mutex>

#include "device_memory.hpp"

namespace gpulab::emu {
namespace {
struct GraphAllocation {
  size_t bytes;
  bool in_use;
};
std::mutex graph_memory_mutex;
std::map<const void*, GraphAllocation> graph_allocations;
}  // namespace

void* allocate_graph_memory(size_t bytes, const char* api, const char* file, int line) {
  void* p = device_allocate(bytes, api, file, line);
  if (!p) return nullptr;
  const std::lock_guard<std::mutex> lock(graph_memory_mutex);
  graph_allocations[p] = {bytes, true};
  return p;
}

bool is_graph_memory(const void* ptr) {
  const std::lock_guard<std::mutex> lock(graph_memory_mutex);
  return graph_allocations.count(ptr) > 0;
}

void mark_graph_memory(const void* ptr, bool in_use) {
  const std::lock_guard<std::mutex> lock(graph_memory_mutex);
  const auto it = graph_allocations.find(ptr);
  if (it != graph_allocations.end()) it->second.in_use = in_use;
}

std::uint64_t graph_memory_in_use() {
  const std::lock_guard<std::mutex> lock(graph_memory_mutex);
  std::uint64_t bytes = 0;
  for (const auto& [p, a] : graph_allocations) bytes += a.in_use ? a.bytes : 0;
  return bytes;
}

std::uint64_t graph_memory_reserved() {
  const std::lock_guard<std::mutex> lock(graph_memory_mutex);
  std::uint64_t bytes = 0;
  for (const auto& [p, a] : graph_allocations) bytes += a.bytes;
  return bytes;
}

}  // namespace gpulab::emu
