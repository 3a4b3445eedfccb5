// The page-locked host blocks, by start address (see page_locked.hpp).
#include "page_locked.hpp"

#include <cstdint>
#include <map>
#include <mutex>

namespace gpulab::emu {
namespace {
std::mutex blocks_mutex;
std::map<std::uintptr_t, size_t> blocks;  // start -> size
}  // namespace

void note_page_locked(const void* ptr, size_t size) {
  std::lock_guard lock(blocks_mutex);
  blocks[reinterpret_cast<std::uintptr_t>(ptr)] = size;
}
void forget_page_locked(const void* ptr) {
  std::lock_guard lock(blocks_mutex);
  blocks.erase(reinterpret_cast<std::uintptr_t>(ptr));
}
bool is_page_locked(const void* ptr, size_t size) {
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  std::lock_guard lock(blocks_mutex);
  auto it = blocks.upper_bound(p);
  if (it == blocks.begin()) return false;
  --it;
  return p >= it->first && p + size <= it->first + it->second;
}
}  // namespace gpulab::emu
