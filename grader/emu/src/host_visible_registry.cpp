// Implementation of host_visible_registry.hpp, and of harness_observe_host_visible. The program's
// __managed__ variables (their own section, qualifiers.hpp) exist from the start: a new observer
// hears them with the rest.
#include "host_visible_registry.hpp"

#include <map>
#include <mutex>
#include <utility>

extern "C" char __start_gpulab_managed[] __attribute__((weak));
extern "C" char __stop_gpulab_managed[] __attribute__((weak));

namespace gpulab::emu {
namespace {
std::mutex registry_mutex;
HostVisibleObserver observer = nullptr;
std::map<const void*, std::pair<size_t, HostVisibleKind>>& pieces() {
  static auto* m = new std::map<const void*, std::pair<size_t, HostVisibleKind>>();  // used until exit
  return *m;
}
}  // namespace

void note_host_visible(const void* address, size_t bytes, HostVisibleKind kind) {
  if (!address || bytes == 0) return;
  std::lock_guard<std::mutex> lock(registry_mutex);
  pieces()[address] = {bytes, kind};
  if (observer) observer(address, bytes, kind, true);
}

void note_host_visible_gone(const void* address) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  const auto it = pieces().find(address);
  if (it == pieces().end()) return;
  if (observer) observer(address, it->second.first, it->second.second, false);
  pieces().erase(it);
}

void harness_observe_host_visible(HostVisibleObserver o) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  observer = o;
  if (!observer) return;
  const char* begin = __start_gpulab_managed;
  const char* end = __stop_gpulab_managed;
  if (begin && end > begin) observer(begin, static_cast<size_t>(end - begin), HostVisibleKind::managed, true);
  for (const auto& [address, piece] : pieces()) observer(address, piece.first, piece.second, true);
}

}  // namespace gpulab::emu
