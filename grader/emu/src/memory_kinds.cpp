// memory_kinds.hpp: the kind of memory at an address, and the device variables the program named.
#include "memory_kinds.hpp"

#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

#include "device_memory.hpp"
#include "page_locked.hpp"

namespace gpulab::emu {
namespace {
std::mutex symbols_mutex;
std::map<uintptr_t, size_t>& symbols() {
  static auto* m = new std::map<uintptr_t, size_t>();  // never destroyed: used until exit
  return *m;
}
}  // namespace

void note_device_symbol(const void* symbol, size_t size) {
  if (!symbol || size == 0) return;
  const std::lock_guard<std::mutex> lock(symbols_mutex);
  size_t& known = symbols()[reinterpret_cast<uintptr_t>(symbol)];
  if (size > known) known = size;
}

bool is_device_symbol(const void* p) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  const std::lock_guard<std::mutex> lock(symbols_mutex);
  auto it = symbols().upper_bound(a);
  if (it == symbols().begin()) return false;
  --it;
  return a < it->first + it->second;
}

MemoryKind memory_kind(const void* p) {
  if (!p) return MemoryKind::pageable;
  const AddressInfo info = lookup_address(p);
  if (info.kind != AddressInfo::Kind::unknown) {
    return info.host_protected ? MemoryKind::device : MemoryKind::managed;
  }
  if (is_page_locked(p, 1)) return MemoryKind::page_locked;
  if (is_device_symbol(p)) return MemoryKind::device;
  return MemoryKind::pageable;
}

}  // namespace gpulab::emu
