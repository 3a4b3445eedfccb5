// Runtime API: stream-ordered allocation (cudaMallocAsync, cudaFreeAsync,
// memory pools) and managed-memory hints (prefetch, advice). An allocation is
// made at once (the memory exists before the stream reaches the call, which no
// correct program can tell apart); a free is queued, so work queued before it
// may still use the memory. Pools keep their attributes and count their bytes
// in use; the emulator never holds freed memory back for reuse. A pool located
// in host memory hands out page-locked host memory, a pool of managed memory
// managed memory, as on a GPU; any pool is reached by the one device.
#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "device_memory.hpp"
#include "graph_memory.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "stream_capture.hpp"

struct CUmemPoolHandle_st {
  cudaMemPoolProps props{};
  std::uint64_t release_threshold = 0;
  int reuse[3] = {1, 1, 1};  // the three reuse policies, on by default as in CUDA
  std::uint64_t used = 0;
  std::uint64_t used_high = 0;
};

using namespace gpulab::emu;

namespace {
std::mutex pools_mutex;
CUmemPoolHandle_st default_pool;
cudaMemPool_t current_pool = &default_pool;
std::map<void*, std::pair<cudaMemPool_t, size_t>> pool_allocations;  // pointer -> (pool, bytes)

bool in_host_memory(cudaMemLocationType type) {
  return type == cudaMemLocationTypeHost || type == cudaMemLocationTypeHostNuma ||
         type == cudaMemLocationTypeHostNumaCurrent;
}

// The pool a live allocation came from, or null. Call with pools_mutex held.
cudaMemPool_t pool_of(void* p) {
  const auto it = pool_allocations.find(p);
  return it == pool_allocations.end() ? nullptr : it->second.first;
}

cudaError_t allocate_from(const char* api, void** ptr, size_t size, cudaMemPool_t pool, const char* file, int line) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (!ptr || !pool)
    return refuse_call(api, cudaErrorInvalidValue, !ptr ? "the output pointer is null" : "the pool is null");
  if (size == 0) {  // as an H200 answers (CUDA 13.0): success, and no memory
    *ptr = nullptr;
    return cudaSuccess;
  }
  void* p = nullptr;
  if (in_host_memory(pool->props.location.type)) {
    if (cudaHostAlloc(&p, size, cudaHostAllocDefault) != cudaSuccess) p = nullptr;
  } else {
    p = device_allocate(size, pool->props.allocType == cudaMemAllocationTypeManaged ? "cudaMallocManaged" : api, file,
                        line);
  }
  if (!p) return refuse_call(api, cudaErrorMemoryAllocation, "cannot allocate " + std::to_string(size) + " bytes");
  std::lock_guard lock(pools_mutex);
  pool_allocations[p] = {pool, size};
  pool->used += size;
  pool->used_high = std::max(pool->used_high, pool->used);
  *ptr = p;
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream, const char* file, int line) {
  if (capturing_graph(stream)) {
    // Captured: the graph's own memory, allocated now and kept for its launches (graph_memory.hpp).
    if (!ptr || size == 0) return refuse_call("cudaMallocAsync", cudaErrorInvalidValue, "a null pointer or 0 bytes");
    void* p = allocate_graph_memory(size, "cudaMallocAsync", file, line);
    if (!p)
      return refuse_call("cudaMallocAsync", cudaErrorMemoryAllocation,
                         "cannot allocate " + std::to_string(size) + " bytes");
    *ptr = p;
    submit(
        stream, [p] { mark_graph_memory(p, true); }, "alloc");
    return cudaSuccess;
  }
  cudaMemPool_t pool;
  {
    std::lock_guard lock(pools_mutex);
    pool = current_pool;
  }
  return allocate_from("cudaMallocAsync", ptr, size, pool, file, line);
}
cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t pool, cudaStream_t, const char* file,
                                    int line) {
  return allocate_from("cudaMallocFromPoolAsync", ptr, size, pool, file, line);
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
  if (!ptr) return cudaSuccess;
  if (is_graph_memory(ptr)) {  // freed for the program; the memory stays for the graph's next launch
    submit(
        stream, [ptr] { mark_graph_memory(ptr, false); }, "free");
    return cudaSuccess;
  }
  bool host_pool = false;
  {
    std::lock_guard lock(pools_mutex);
    const cudaMemPool_t pool = pool_of(ptr);
    host_pool = pool && in_host_memory(pool->props.location.type);
  }
  const auto a = find_allocation(ptr);
  if (!host_pool && (!a || a->begin != reinterpret_cast<std::uintptr_t>(ptr))) {
    return refuse_call("cudaFreeAsync", cudaErrorInvalidValue,
                       "the pointer is not the start of a live device allocation (freed twice?)");
  }
  submit(
      stream,
      [ptr, host_pool] {
        {
          std::lock_guard lock(pools_mutex);
          const auto it = pool_allocations.find(ptr);
          if (it != pool_allocations.end()) {
            it->second.first->used -= it->second.second;
            pool_allocations.erase(it);
          }
        }
        if (host_pool) cudaFreeHost(ptr);
        else device_free(ptr);
      },
      "free");
  return cudaSuccess;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (!pool) return set_last_error(cudaErrorInvalidValue);
  if (device != 0) return set_last_error(cudaErrorInvalidDevice);
  *pool = &default_pool;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  if (!pool) return set_last_error(cudaErrorInvalidValue);
  if (device != 0) return set_last_error(cudaErrorInvalidDevice);
  std::lock_guard lock(pools_mutex);
  *pool = current_pool;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (!pool) return set_last_error(cudaErrorInvalidValue);
  if (device != 0) return set_last_error(cudaErrorInvalidDevice);
  std::lock_guard lock(pools_mutex);
  current_pool = pool;
  return cudaSuccess;
}
cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (!pool || !props) return set_last_error(cudaErrorInvalidValue);
  if (props->allocType != cudaMemAllocationTypePinned && props->allocType != cudaMemAllocationTypeManaged) {
    return set_last_error(cudaErrorInvalidValue);
  }
  if (props->location.type == cudaMemLocationTypeDevice && props->location.id != 0) {
    return set_last_error(cudaErrorInvalidValue);  // not cudaErrorInvalidDevice: as an H200 answers (CUDA 13.0)
  }
  auto* p = new CUmemPoolHandle_st;
  p->props = *props;
  *pool = p;
  return cudaSuccess;
}
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descs, size_t count) {
  if (!pool || (count && !descs)) return set_last_error(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    if (descs[i].location.type != cudaMemLocationTypeDevice) return set_last_error(cudaErrorInvalidValue);
    if (descs[i].location.id != 0) return set_last_error(cudaErrorInvalidDevice);
    if (descs[i].flags != cudaMemAccessFlagsProtNone && descs[i].flags != cudaMemAccessFlagsProtRead &&
        descs[i].flags != cudaMemAccessFlagsProtReadWrite) {
      return set_last_error(cudaErrorInvalidValue);
    }
  }
  return cudaSuccess;
}
cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool, cudaMemLocation* location) {
  if (!flags || !pool || !location || location->type != cudaMemLocationTypeDevice) {
    return set_last_error(cudaErrorInvalidValue);
  }
  if (location->id != 0) return set_last_error(cudaErrorInvalidDevice);
  *flags = cudaMemAccessFlagsProtReadWrite;
  return cudaSuccess;
}
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  if (!pool || pool == &default_pool) return set_last_error(cudaErrorInvalidValue);
  std::lock_guard lock(pools_mutex);
  if (current_pool == pool) current_pool = &default_pool;
  delete pool;  // as in CUDA, memory still allocated from it stays valid until freed
  for (auto& [ptr, owner] : pool_allocations) {
    if (owner.first == pool) owner.first = &default_pool;
  }
  return cudaSuccess;
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (!pool || !value) return set_last_error(cudaErrorInvalidValue);
  std::lock_guard lock(pools_mutex);
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      pool->reuse[attr - 1] = *static_cast<int*>(value);
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      pool->release_threshold = *static_cast<std::uint64_t*>(value);
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:  // only resetting to 0 is allowed
      if (*static_cast<std::uint64_t*>(value) != 0) return set_last_error(cudaErrorInvalidValue);
      pool->used_high = pool->used;
      return cudaSuccess;
    default: return set_last_error(cudaErrorInvalidValue);
  }
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (!pool || !value) return set_last_error(cudaErrorInvalidValue);
  std::lock_guard lock(pools_mutex);
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      *static_cast<int*>(value) = pool->reuse[attr - 1];
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      *static_cast<std::uint64_t*>(value) = pool->release_threshold;
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent: *static_cast<std::uint64_t*>(value) = pool->used; return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh: *static_cast<std::uint64_t*>(value) = pool->used_high; return cudaSuccess;
  }
  return set_last_error(cudaErrorInvalidValue);
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t) {
  return pool ? cudaSuccess : set_last_error(cudaErrorInvalidValue);
}

// The emulator's memory is the host's: prefetching moves nothing, but the range must be memory CUDA manages.
cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t count, cudaMemLocation location, unsigned int,
                                 cudaStream_t stream) {
  if (location.type == cudaMemLocationTypeDevice && location.id != 0) return set_last_error(cudaErrorInvalidDevice);
  const std::string why = check_device_range(ptr, count, "the prefetched range");
  if (!why.empty()) return refuse_call("cudaMemPrefetchAsync", cudaErrorInvalidValue, why);
  submit(
      stream, [] {}, "prefetch");
  return cudaSuccess;
}
cudaError_t cudaMemAdvise(const void* ptr, size_t count, cudaMemoryAdvise advice, cudaMemLocation location) {
  if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy) {
    return set_last_error(cudaErrorInvalidValue);
  }
  if (location.type == cudaMemLocationTypeDevice && location.id != 0) return set_last_error(cudaErrorInvalidDevice);
  const std::string why = check_device_range(ptr, count, "the advised range");
  if (!why.empty()) return refuse_call("cudaMemAdvise", cudaErrorInvalidValue, why);
  return cudaSuccess;
}
// Managed memory attached to a stream: the emulated device and the host share one memory, so the
// attachment changes no access; the range (length 0: the whole allocation) must be memory CUDA manages.
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* ptr, size_t length, unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle) {
    return set_last_error(cudaErrorInvalidValue);
  }
  const std::string why = check_device_range(ptr, length ? length : 1, "the attached range");
  if (!why.empty()) return refuse_call("cudaStreamAttachMemAsync", cudaErrorInvalidValue, why);
  submit(
      stream, [] {}, "attach");
  return cudaSuccess;
}
