// Runtime API: page-locked host memory (cudaMallocHost, cudaHostAlloc,
// cudaHostRegister) and the device flags that govern mapping it. Emulated
// kernels read host memory directly, so pinning changes nothing physical; what
// this file keeps is the bookkeeping CUDA does, so that misuse gets CUDA's
// codes: freeing with cudaFreeHost what it did not allocate, registering a
// range twice, unregistering what was never registered, asking for the device
// pointer of ordinary pageable memory. With unified addressing (every 64-bit
// CUDA platform) a pinned range's device pointer is its host address.
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <string>

#include "device_printf.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "page_locked.hpp"
#include "platform/page_size.hpp"
#include "host_visible_registry.hpp"
#include "stream_queue.hpp"

namespace gpulab::emu {
namespace {

struct PinnedRange {
  size_t size;
  unsigned flags;
  bool registered;  // by cudaHostRegister (else allocated by cudaMallocHost/cudaHostAlloc)
};

std::mutex pinned_mutex;
std::map<uintptr_t, PinnedRange>& pinned() {
  static std::map<uintptr_t, PinnedRange> ranges;
  return ranges;
}
unsigned device_flags = 0;

// The pinned range holding p, or end(). Call with pinned_mutex held.
std::map<uintptr_t, PinnedRange>::iterator range_holding(const void* p) {
  auto& ranges = pinned();
  const auto a = reinterpret_cast<uintptr_t>(p);
  auto it = ranges.upper_bound(a);
  if (it == ranges.begin()) return ranges.end();
  --it;
  return a < it->first + it->second.size ? it : ranges.end();
}

bool overlaps_pinned(uintptr_t begin, size_t size) {
  const auto& ranges = pinned();
  auto it = ranges.lower_bound(begin);
  if (it != ranges.end() && it->first < begin + size) return true;
  if (it == ranges.begin()) return false;
  --it;
  return begin < it->first + it->second.size;
}

}  // namespace

bool is_page_locked(const void* ptr, size_t size) {
  std::lock_guard<std::mutex> lock(pinned_mutex);
  const auto it = range_holding(ptr);
  return it != pinned().end() && reinterpret_cast<uintptr_t>(ptr) + size <= it->first + it->second.size;
}

std::vector<std::pair<uintptr_t, size_t>> page_locked_ranges() {
  std::lock_guard<std::mutex> lock(pinned_mutex);
  std::vector<std::pair<uintptr_t, size_t>> out;
  for (const auto& [begin, r] : pinned()) out.emplace_back(begin, r.size);
  return out;
}
std::vector<uintptr_t> allocated_page_locked() {
  std::lock_guard<std::mutex> lock(pinned_mutex);
  std::vector<uintptr_t> out;
  for (const auto& [begin, r] : pinned())
    if (!r.registered) out.push_back(begin);
  return out;
}
}  // namespace gpulab::emu

using namespace gpulab::emu;

cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int flags) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (!ptr) return refuse_call("cudaHostAlloc", cudaErrorInvalidValue, "the output pointer is null");
  if (flags & ~static_cast<unsigned>(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)) {
    return refuse_call("cudaHostAlloc", cudaErrorInvalidValue,
                       "the flags " + std::to_string(flags) +
                           " are not a combination of cudaHostAllocPortable, cudaHostAllocMapped and "
                           "cudaHostAllocWriteCombined");
  }
  if (size == 0) {
    *ptr = nullptr;
    return cudaSuccess;
  }
  const size_t page = gpulab::platform::page_size();  // pinned memory comes in whole pages
  void* p = std::aligned_alloc(page, (size + page - 1) / page * page);
  if (!p) {
    *ptr = nullptr;
    return refuse_call("cudaHostAlloc", cudaErrorMemoryAllocation,
                       "cannot allocate " + std::to_string(size) + " bytes");
  }
  {
    std::lock_guard<std::mutex> lock(pinned_mutex);
    pinned()[reinterpret_cast<uintptr_t>(p)] = PinnedRange{size, flags, false};
  }
  note_host_visible(p, size, HostVisibleKind::page_locked);
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void** ptr, size_t size) { return cudaHostAlloc(ptr, size, cudaHostAllocDefault); }

cudaError_t cudaFreeHost(void* ptr) {
  wait_for_all();  // queued copies and kernels may still use it
  if (synchronize_errors() != cudaSuccess) return sticky_error();
  flush_device_output();
  if (!ptr) return cudaSuccess;
  {
    std::lock_guard<std::mutex> lock(pinned_mutex);
    auto it = pinned().find(reinterpret_cast<uintptr_t>(ptr));
    if (it != pinned().end() && !it->second.registered) {
      pinned().erase(it);
      note_host_visible_gone(ptr);
      std::free(ptr);
      return cudaSuccess;
    }
  }
  return refuse_call("cudaFreeHost", cudaErrorInvalidValue,
                     "the pointer is not the start of memory from cudaMallocHost or cudaHostAlloc (memory from "
                     "malloc/new is freed with free/delete, registered memory is released with cudaHostUnregister)");
}

cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  const unsigned known =
      cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;
  if (!ptr || size == 0 || (flags & ~known)) {
    return refuse_call("cudaHostRegister", cudaErrorInvalidValue,
                       !ptr        ? "the pointer is null"
                       : size == 0 ? "the size is 0"
                                   : "unknown flags");
  }
  std::lock_guard<std::mutex> lock(pinned_mutex);
  if (overlaps_pinned(reinterpret_cast<uintptr_t>(ptr), size)) {
    return refuse_call("cudaHostRegister", cudaErrorHostMemoryAlreadyRegistered,
                       "part of the " + std::to_string(size) + "-byte range is already page-locked");
  }
  pinned()[reinterpret_cast<uintptr_t>(ptr)] = PinnedRange{size, flags, true};
  note_host_visible(ptr, size, HostVisibleKind::registered);
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  std::lock_guard<std::mutex> lock(pinned_mutex);
  auto it = pinned().find(reinterpret_cast<uintptr_t>(ptr));
  if (!ptr || it == pinned().end() || !it->second.registered) {
    return refuse_call("cudaHostUnregister", cudaErrorHostMemoryNotRegistered,
                       "the pointer is not the start of a range registered with cudaHostRegister");
  }
  pinned().erase(it);
  note_host_visible_gone(ptr);
  return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned int flags) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (!device_ptr || flags != 0) {
    return refuse_call("cudaHostGetDevicePointer", cudaErrorInvalidValue,
                       !device_ptr ? "the output pointer is null" : "the flags must be 0");
  }
  std::lock_guard<std::mutex> lock(pinned_mutex);
  if (range_holding(host_ptr) == pinned().end()) {
    return refuse_call("cudaHostGetDevicePointer", cudaErrorInvalidValue,
                       "the pointer is not in memory from cudaHostAlloc/cudaMallocHost or registered with "
                       "cudaHostRegister");
  }
  *device_ptr = host_ptr;
  return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned int* flags, void* host_ptr) {
  if (!flags) return refuse_call("cudaHostGetFlags", cudaErrorInvalidValue, "the output pointer is null");
  std::lock_guard<std::mutex> lock(pinned_mutex);
  auto it = range_holding(host_ptr);
  if (it == pinned().end() || it->second.registered) {
    return refuse_call("cudaHostGetFlags", cudaErrorInvalidValue,
                       "the pointer is not in memory from cudaHostAlloc/cudaMallocHost");
  }
  *flags = it->second.flags;
  return cudaSuccess;
}

// Since CUDA 7 the flags may be set again on an active device (they replace the old ones).
cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  if (flags & ~static_cast<unsigned>(cudaDeviceMask)) {
    return refuse_call("cudaSetDeviceFlags", cudaErrorInvalidValue,
                       "the flags " + std::to_string(flags) + " are not cudaDevice* flags");
  }
  device_flags = flags;
  return cudaSuccess;
}

// Mapping host memory is always on with unified addressing, so cudaDeviceMapHost is always reported.
cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (!flags) return refuse_call("cudaGetDeviceFlags", cudaErrorInvalidValue, "the output pointer is null");
  *flags = device_flags | cudaDeviceMapHost;
  return cudaSuccess;
}
