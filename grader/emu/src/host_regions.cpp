// host_regions.hpp: the program's own host memory, from /proc/self/maps, the loaded objects'
// segments (dl_iterate_phdr) and the section that holds __managed__ variables.
#include "host_regions.hpp"

#include "gpulab/emu/runtime_memory.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <iterator>
#include <mutex>
#include <vector>

#include "device_heap_state.hpp"
#include "memory_kinds.hpp"

#if defined(__linux__)
#include <link.h>
// Bounds the linker gives the section qualifiers.hpp puts __managed__ variables in; null without one.
extern "C" char __start_gpulab_managed[] __attribute__((weak));
extern "C" char __stop_gpulab_managed[] __attribute__((weak));
#endif

namespace gpulab::emu {

const char* host_region_words(HostRegion region) {
  switch (region) {
    case HostRegion::heap: return "host memory from malloc or new";
    case HostRegion::anonymous: return "host memory (from malloc or new, or a host thread's stack)";
    case HostRegion::stack: return "the host's stack (a local array or variable of host code)";
    case HostRegion::variable: return "a host variable (a global or static without __device__)";
    case HostRegion::mapped_file: return "a file mapped into host memory";
    case HostRegion::none: break;
  }
  return "memory the GPU can reach";
}

void HostMemoryMap::read() {
  mappings_.clear();
#if defined(__linux__)
  FILE* f = std::fopen("/proc/self/maps", "re");
  if (!f) return;
  char line[4096];
  while (std::fgets(line, sizeof line, f)) {
    unsigned long begin = 0, end = 0;
    char perms[8] = {};
    int name_at = 0;
    if (std::sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &begin, &end, perms, &name_at) < 3) continue;
    const char* name = line + name_at;
    HostRegion region = HostRegion::mapped_file;
    if (name[0] == '\n' || name[0] == '\0') region = HostRegion::anonymous;
    else if (std::strncmp(name, "[heap]", 6) == 0) region = HostRegion::heap;
    else if (std::strncmp(name, "[stack]", 7) == 0) region = HostRegion::stack;
    else if (name[0] == '[') region = HostRegion::variable;  // [vdso], [vvar]: the system's
    mappings_.push_back(Mapping{begin, end, region});
  }
  std::fclose(f);
  segments_.clear();
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto& out = *static_cast<std::vector<std::pair<uintptr_t, uintptr_t>>*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD)
            out.emplace_back(info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
        }
        return 0;
      },
      &segments_);
  std::sort(segments_.begin(), segments_.end());
#endif
}

std::pair<uintptr_t, uintptr_t> HostMemoryMap::mapping_of(uintptr_t a) const {
  auto it = std::upper_bound(mappings_.begin(), mappings_.end(), a,
                             [](uintptr_t x, const Mapping& m) { return x < m.begin; });
  if (it == mappings_.begin()) return {0, 0};
  --it;
  return a < it->end ? std::pair{it->begin, it->end} : std::pair<uintptr_t, uintptr_t>{0, 0};
}

HostRegion HostMemoryMap::region_of(uintptr_t a) const {
  auto seg = std::upper_bound(segments_.begin(), segments_.end(), std::pair{a, ~uintptr_t{0}});
  if (seg != segments_.begin() && a < std::prev(seg)->second) return HostRegion::variable;
  auto it = std::upper_bound(mappings_.begin(), mappings_.end(), a,
                             [](uintptr_t x, const Mapping& m) { return x < m.begin; });
  if (it == mappings_.begin()) return HostRegion::none;
  --it;
  return a < it->end ? it->region : HostRegion::none;
}

bool in_loaded_image(uintptr_t a) {
#if defined(__linux__)
  struct Query {
    uintptr_t a;
    bool found;
  } q{a, false};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto& q = *static_cast<Query*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          const uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
          if (q.a >= lo && q.a < lo + ph.p_memsz) {
            q.found = true;
            return 1;
          }
        }
        return 0;
      },
      &q);
  return q.found;
#else
  (void)a;
  return false;
#endif
}

bool in_managed_variables(uintptr_t a) {
#if defined(__linux__)
  const auto lo = reinterpret_cast<uintptr_t>(__start_gpulab_managed);
  const auto hi = reinterpret_cast<uintptr_t>(__stop_gpulab_managed);
  return lo && a >= lo && a < hi;
#else
  (void)a;
  return false;
#endif
}

bool gpu_reachable(const void* p) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  return a < 65536 || memory_kind(p) != MemoryKind::pageable || device_heap_owns(p) || in_managed_variables(a);
}

HostRegion unreachable_host_region(const void* p, HostMemoryMap& map, bool& map_read) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  if (in_loaded_image(a)) return HostRegion::variable;
  if (!map_read) {
    map.read();
    map_read = true;
  }
  return map.region_of(a);
}

namespace {
std::mutex heaps_mutex;
std::vector<uintptr_t>& runtime_heaps() {  // each an arena heap's start, 64 MiB aligned
  static auto* v = new std::vector<uintptr_t>();
  return *v;
}
constexpr uintptr_t kArenaHeapBytes = uintptr_t{64} << 20;  // glibc's HEAP_MAX_SIZE on 64-bit
}  // namespace

void note_runtime_thread_heap() {
  void* probe = std::malloc(1);
  if (!probe) return;
  const auto p = reinterpret_cast<uintptr_t>(probe);
  std::free(probe);
  HostMemoryMap map;
  map.read();
  if (map.region_of(p) != HostRegion::anonymous) return;  // the main arena: the program's heap
  std::lock_guard<std::mutex> lock(heaps_mutex);
  runtime_heaps().push_back(p & ~(kArenaHeapBytes - 1));
}

bool in_runtime_thread_heap(uintptr_t a) {
  if (in_runtime_memory(a)) return true;
  std::lock_guard<std::mutex> lock(heaps_mutex);
  for (uintptr_t begin : runtime_heaps())
    if (a >= begin && a < begin + kArenaHeapBytes) return true;
  return false;
}

}  // namespace gpulab::emu
