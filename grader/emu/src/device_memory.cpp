// Guarded device allocations and the registry that finds them by address. Every allocation but
// managed memory is kept from host code (device_access.hpp): its accessible bytes are poisoned
// first, then protected, under the registry's lock, so that opening device memory (toggled) sees
// every allocation in one state.
#include "device_memory.hpp"

#include "device_access.hpp"
#include "fault_handler.hpp"
#include "host_visible_registry.hpp"

#include "platform/page_size.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>

namespace gpulab::emu {
namespace {
constexpr size_t kGuardBytes = 64 * 1024;  // inaccessible on each side
constexpr size_t kAlignment = 256;         // cudaMalloc's alignment
constexpr unsigned char kGuardPattern = 0xA5;
constexpr unsigned char kFreshPoison = 0xFF;

struct Mapping {
  Allocation allocation;
  char* map_base;
  size_t map_bytes;
  char* data_begin;     // first accessible byte
  char* data_end;       // one past the last accessible byte
  bool host_protected;  // kept from host code: every allocation but managed memory
};

std::atomic<unsigned long long> write_epoch{0};
std::mutex registry_mutex;
std::map<uintptr_t, Mapping>& registry() {
  static auto* m = new std::map<uintptr_t, Mapping>();  // never destroyed: used until exit
  return *m;
}
size_t page_size() { return platform::page_size(); }
}  // namespace

void* device_allocate(size_t size, const char* api, const char* file, int line) {
  if (device_protection() != DeviceProtection::off) install_fault_handler();  // host code may fault before a launch
  const size_t page = page_size();
  const size_t data_bytes = ((size + kAlignment) + page - 1) / page * page;
  const size_t total = kGuardBytes + data_bytes + kGuardBytes;
  void* p = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  char* base = static_cast<char*>(p);
  char* data_begin = base + kGuardBytes;
  char* data_end = data_begin + data_bytes;
  if (mprotect(data_begin, data_bytes, PROT_READ | PROT_WRITE) != 0) {
    munmap(p, total);
    return nullptr;
  }
  // Place the allocation as close to the end as the alignment allows.
  const uintptr_t end = reinterpret_cast<uintptr_t>(data_end);
  const uintptr_t begin = (end - size) / kAlignment * kAlignment;
  std::memset(data_begin, kGuardPattern, begin - reinterpret_cast<uintptr_t>(data_begin));
  std::memset(reinterpret_cast<void*>(begin), kFreshPoison, size);
  std::memset(reinterpret_cast<void*>(begin + size), kGuardPattern, end - (begin + size));

  Mapping m{Allocation{begin, size, std::string(file ? file : "?") + ":" + std::to_string(line), api},
            base,
            total,
            data_begin,
            data_end,
            !is_managed_api(api)};
  std::lock_guard<std::mutex> lock(registry_mutex);
  if (m.host_protected) protect_device_range(data_begin, data_bytes);
  registry()[begin] = m;
  note_memory_written();
  if (!m.host_protected) note_host_visible(reinterpret_cast<void*>(begin), size, HostVisibleKind::managed);
  return reinterpret_cast<void*>(begin);
}

bool is_managed_api(const char* api) { return api && std::strcmp(api, "cudaMallocManaged") == 0; }

void set_device_memory_open(bool open) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  note_device_memory_open(open);
  for (const auto& [begin, m] : registry()) {
    if (m.host_protected) mprotect(m.data_begin, m.data_end - m.data_begin, open ? PROT_READ | PROT_WRITE : PROT_NONE);
  }
}

void note_memory_written() { write_epoch.fetch_add(1, std::memory_order_relaxed); }
unsigned long long memory_write_epoch() { return write_epoch.load(std::memory_order_relaxed); }

std::vector<Allocation> live_allocations() {
  std::vector<Allocation> out;
  std::lock_guard<std::mutex> lock(registry_mutex);
  out.reserve(registry().size());
  for (const auto& [begin, m] : registry()) out.push_back(m.allocation);
  return out;
}

bool device_free(void* ptr) {
  Mapping m;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto it = registry().find(reinterpret_cast<uintptr_t>(ptr));
    if (it == registry().end()) return false;
    m = it->second;
    registry().erase(it);
  }
  note_memory_written();
  if (!m.host_protected) note_host_visible_gone(ptr);
  munmap(m.map_base, m.map_bytes);
  return true;
}

void free_all_device_memory() {
  std::map<uintptr_t, Mapping> all;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    all.swap(registry());
  }
  for (auto& [begin, m] : all) {
    if (!m.host_protected) note_host_visible_gone(reinterpret_cast<void*>(begin));
    munmap(m.map_base, m.map_bytes);
  }
}

std::optional<Allocation> find_allocation(const void* ptr) {
  note_memory_written();  // the runtime looks device pointers up before it reads or writes them
  const auto a = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto it = registry().upper_bound(a);
  if (it == registry().begin()) return std::nullopt;
  --it;
  const Allocation& al = it->second.allocation;
  if (a >= al.begin && a < al.begin + al.size) return al;
  return std::nullopt;
}

std::string check_device_range(const void* ptr, size_t bytes, const char* what) {
  note_memory_written();  // what the runtime checks, it is about to read or write
  if (bytes == 0) return {};
  if (!ptr) return std::string(what) + " is a null pointer";
  auto al = find_allocation(ptr);
  if (!al) {
    return std::string(what) + " (" + std::to_string(reinterpret_cast<uintptr_t>(ptr)) +
           ") is not device memory: it does not point into any live cudaMalloc allocation";
  }
  const auto a = reinterpret_cast<uintptr_t>(ptr);
  if (a + bytes > al->begin + al->size) {
    return std::string(what) + " range of " + std::to_string(bytes) + " bytes runs " +
           std::to_string(a + bytes - (al->begin + al->size)) + " bytes past the end of the " +
           std::to_string(al->size) + "-byte allocation made by " + al->api + " at " + al->origin;
  }
  return {};
}

namespace {
// The mapping (guard zones included) holding `a`, or null; with the registry's lock held. Mappings
// never overlap, and an allocation starts at most kGuardBytes + its data bytes into its mapping.
const Mapping* mapping_holding(uintptr_t a) {
  auto it = registry().upper_bound(a + kGuardBytes);
  while (it != registry().begin()) {
    --it;
    const Mapping& m = it->second;
    const auto lo = reinterpret_cast<uintptr_t>(m.map_base);
    if (a >= lo && a < lo + m.map_bytes) return &m;
    if (lo + m.map_bytes <= a) return nullptr;  // every mapping further down ends lower still
  }
  return nullptr;
}

AddressInfo describe(const Mapping* m, uintptr_t a) {
  AddressInfo info;
  if (!m) return info;
  info.allocation = m->allocation;
  info.offset = static_cast<long long>(a) - static_cast<long long>(m->allocation.begin);
  info.host_protected = m->host_protected;
  if (a < m->allocation.begin) info.kind = AddressInfo::Kind::before;
  else if (a >= m->allocation.begin + m->allocation.size) info.kind = AddressInfo::Kind::after;
  else info.kind = AddressInfo::Kind::inside;
  return info;
}
}  // namespace

AddressInfo classify_address(const void* address) { return classify_address(address, 1); }

AddressInfo classify_address(const void* address, int tries) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  std::unique_lock<std::mutex> lock(registry_mutex, std::defer_lock);
  for (int i = 0; i < tries && !lock.try_lock(); ++i) {
    if (i + 1 < tries) usleep(1000);
  }
  if (!lock.owns_lock()) return AddressInfo{};
  return describe(mapping_holding(a), a);
}

AddressInfo lookup_address(const void* address) {
  const auto a = reinterpret_cast<uintptr_t>(address);
  std::lock_guard<std::mutex> lock(registry_mutex);
  return describe(mapping_holding(a), a);
}

std::vector<GuardViolation> check_guards() {
  std::vector<GuardViolation> out;
  const DeviceAccess access;  // before the registry's lock: opening it (toggled) takes that lock
  std::lock_guard<std::mutex> lock(registry_mutex);
  for (auto& [begin, m] : registry()) {
    const auto al_begin = reinterpret_cast<unsigned char*>(m.allocation.begin);
    const auto al_end = al_begin + m.allocation.size;
    long long first = 0, last = 0;
    bool bad = false;
    auto scan = [&](unsigned char* lo, unsigned char* hi) {
      for (unsigned char* p = lo; p < hi; ++p) {
        if (*p != kGuardPattern) {
          const long long off = p - al_begin;
          if (!bad) first = off;
          last = off;
          bad = true;
          *p = kGuardPattern;
        }
      }
    };
    scan(reinterpret_cast<unsigned char*>(m.data_begin), al_begin);
    scan(al_end, reinterpret_cast<unsigned char*>(m.data_end));
    if (bad) out.push_back(GuardViolation{m.allocation, first, last});
  }
  return out;
}

size_t device_bytes_in_use() {
  std::lock_guard<std::mutex> lock(registry_mutex);
  size_t total = 0;
  for (const auto& [b, m] : registry()) total += m.allocation.size;
  return total;
}

}  // namespace gpulab::emu
