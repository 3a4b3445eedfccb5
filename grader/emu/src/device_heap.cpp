// The device heap behind malloc/free in kernels (see device_heap.hpp): one
// region of cudaLimitMallocHeapSize bytes, made at the first allocation in a
// kernel, handed out first-fit in 16-byte-aligned pieces (as CUDA aligns them)
// under a lock, since the blocks of a launch run on several workers at once.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>

#include "device_heap_state.hpp"
#include "gpulab/emu/execution_context.hpp"
#include "launch_replay.hpp"
#include "gpulab/emu/runtime_api.hpp"

extern "C" void* gpulab_emu_malloc(size_t bytes) noexcept;
extern "C" void gpulab_emu_free(void* ptr) noexcept;

namespace {
constexpr size_t kAlignment = 16;

struct DeviceHeap {
  std::mutex mutex;
  std::unique_ptr<unsigned char[]> region;
  size_t size = 0;
  std::map<size_t, size_t> free_pieces;  // offset -> bytes
  std::map<size_t, size_t> used_pieces;  // offset -> bytes

  std::atomic<bool> made{false};  // a region exists (host frees skip the lock until then)

  bool owns(const void* p) const {
    const auto a = reinterpret_cast<uintptr_t>(p), base = reinterpret_cast<uintptr_t>(region.get());
    return region && a >= base && a < base + size;
  }

  // (Re)creates the region when nothing is allocated and the limit differs from its size.
  void fit_to_limit() {
    size_t limit = 0;
    cudaDeviceGetLimit(&limit, cudaLimitMallocHeapSize);
    if ((region && size == limit) || !used_pieces.empty()) return;
    limit = limit / kAlignment * kAlignment;
    region.reset(limit ? new (std::nothrow) unsigned char[limit] : nullptr);
    size = region ? limit : 0;
    free_pieces.clear();
    if (size) free_pieces[0] = size;
    made.store(true);
  }

  void* allocate(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    fit_to_limit();
    const size_t need = bytes == 0 ? kAlignment : (bytes + kAlignment - 1) / kAlignment * kAlignment;
    if (need < bytes) return nullptr;  // overflowed
    for (auto it = free_pieces.begin(); it != free_pieces.end(); ++it) {
      if (it->second < need) continue;
      const size_t offset = it->first, left = it->second - need;
      free_pieces.erase(it);
      if (left) free_pieces[offset + need] = left;
      used_pieces[offset] = need;
      return region.get() + offset;
    }
    return nullptr;
  }

  // False (and nothing done) when p is not in the region.
  bool release(void* p) {
    if (!made.load()) return false;
    std::lock_guard<std::mutex> lock(mutex);
    if (!owns(p)) return false;
    const size_t offset = static_cast<size_t>(static_cast<unsigned char*>(p) - region.get());
    auto used = used_pieces.find(offset);
    if (used == used_pieces.end()) return true;  // not the start of a piece: freed twice, or an inner pointer
    size_t begin = offset, bytes = used->second;
    used_pieces.erase(used);
    auto next = free_pieces.lower_bound(begin);
    if (next != free_pieces.end() && next->first == begin + bytes) {
      bytes += next->second;
      next = free_pieces.erase(next);
    }
    if (next != free_pieces.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == begin) {
        begin = prev->first;
        bytes += prev->second;
        free_pieces.erase(prev);
      }
    }
    free_pieces[begin] = bytes;
    return true;
  }
};

DeviceHeap& heap() {
  static DeviceHeap* h = new DeviceHeap();  // never destroyed: kernels may still free at exit
  return *h;
}
}  // namespace

namespace gpulab::emu {
bool device_heap_in_use() { return heap().made.load(); }
bool device_heap_owns(const void* p) {
  DeviceHeap& h = heap();
  if (!h.made.load()) return false;
  const std::lock_guard<std::mutex> lock(h.mutex);
  return h.owns(p);
}
void reset_device_heap() {
  DeviceHeap& h = heap();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.region.reset();
  h.size = 0;
  h.free_pieces.clear();
  h.used_pieces.clear();
  h.made.store(false);
}
}  // namespace gpulab::emu

extern "C" void* gpulab_emu_malloc(size_t bytes) noexcept {
  if (!gpulab_emu_thread) return std::malloc(bytes);
  gpulab::emu::note_impure_launch();
  return heap().allocate(bytes);
}

extern "C" void gpulab_emu_free(void* ptr) noexcept {
  if (gpulab_emu_thread) gpulab::emu::note_impure_launch();
  if (ptr && !heap().release(ptr)) std::free(ptr);
}
