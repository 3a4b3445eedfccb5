// Runtime API: device memory (cudaMalloc/Free/Memcpy/Memset) and symbols.
// Every device-side range is checked against the live allocations, so a copy
// that runs past an allocation is an error with a message, not a corruption.
// Synchronous copies and memsets wait for the queued work first (the legacy
// default stream); the Async ones are checked at once and queued on their
// stream when the host side is page-locked (or there is none), otherwise done
// once the stream's earlier work is, as CUDA does with pageable memory.
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "copy_rows.hpp"
#include "device_memory.hpp"
#include "graph_memory.hpp"
#include "device_printf.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/copy_observer.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "page_locked.hpp"
#include "stream_capture.hpp"

namespace gpulab::emu {
namespace {
CopyObserver copy_observer = nullptr;

// Tells the harness's observer (copy_observer.hpp) of a copy about to be made.
void observe_copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (copy_observer && count) copy_observer(dst, src, count, kind);
}

bool is_device(const void* p) { return find_allocation(p).has_value(); }

// Checks a copy (direction, both ranges) and resolves cudaMemcpyDefault; on an error, reports it.
cudaError_t check_copy(const char* api, void* dst, const void* src, size_t count, cudaMemcpyKind& kind) {
  if (kind == cudaMemcpyDefault) {
    const bool d = is_device(dst), s = is_device(src);
    kind = d ? (s ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
             : (s ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  }
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
    return refuse_call(api, cudaErrorInvalidMemcpyDirection,
                       "the copy kind " + std::to_string(kind) + " is not a cudaMemcpyKind");
  }
  const bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (dst_device) {
    std::string why = check_device_range(dst, count, "the destination");
    if (!why.empty()) return refuse_call(api, cudaErrorInvalidValue, why);
  } else if (is_device(dst)) {
    return refuse_call(api, cudaErrorInvalidValue,
                       "the destination is device memory but the kind says host; swap the arguments or the kind");
  }
  if (src_device) {
    std::string why = check_device_range(src, count, "the source");
    if (!why.empty()) return refuse_call(api, cudaErrorInvalidValue, why);
  } else if (is_device(src)) {
    return refuse_call(api, cudaErrorInvalidValue,
                       "the source is device memory but the kind says host; swap the arguments or the kind");
  }
  if (!dst || !src) return refuse_call(api, cudaErrorInvalidValue, "a null pointer was passed");
  return cudaSuccess;
}

cudaError_t copy(const char* api, void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  wait_for_all();
  if (synchronize_errors() != cudaSuccess) return sticky_error();
  flush_device_output();
  if (count == 0) return cudaSuccess;
  const cudaError_t e = check_copy(api, dst, src, count, kind);
  if (e != cudaSuccess) return e;
  observe_copy(dst, src, count, kind);
  std::memmove(dst, src, count);
  note_memory_written();
  return cudaSuccess;
}

// The host side of a copy: page-locked (or none) lets the copy run asynchronously.
bool host_side_page_locked(const void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  switch (kind) {
    case cudaMemcpyHostToDevice: return is_page_locked(src, count);
    case cudaMemcpyDeviceToHost: return is_page_locked(dst, count);
    case cudaMemcpyDeviceToDevice: return true;
    default: return is_page_locked(src, count) && is_page_locked(dst, count);
  }
}
}  // namespace

namespace {
// The checks both directions share: sticky error, direction, the symbol's size,
// the device side of a device-to-device copy. `to_symbol` says which way.
cudaError_t symbol_copy(bool to_symbol, char* symbol, size_t symbol_size, void* other, size_t count, size_t offset,
                        cudaMemcpyKind kind) {
  const char* api = to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol";
  wait_for_all();
  if (synchronize_errors() != cudaSuccess) return sticky_error();
  const cudaMemcpyKind host_kind = to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  if (kind != host_kind && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault) {
    return refuse_call(api, cudaErrorInvalidMemcpyDirection,
                       to_symbol ? "copies to a symbol go host-to-device or device-to-device"
                                 : "copies from a symbol go device-to-host or device-to-device");
  }
  if (offset + count > symbol_size) {
    return refuse_call(api, cudaErrorInvalidValue,
                       "copying " + std::to_string(count) + " bytes at offset " + std::to_string(offset) +
                           " overruns the " + std::to_string(symbol_size) + "-byte symbol");
  }
  if (kind == cudaMemcpyDeviceToDevice) {
    std::string why = check_device_range(other, count, to_symbol ? "the source" : "the destination");
    if (!why.empty()) return refuse_call(api, cudaErrorInvalidValue, why);
  }
  if (count) {
    const bool other_device = kind == cudaMemcpyDeviceToDevice || (kind == cudaMemcpyDefault && is_device(other));
    const cudaMemcpyKind resolved = other_device ? cudaMemcpyDeviceToDevice : host_kind;
    if (to_symbol) {
      observe_copy(symbol + offset, other, count, resolved);
      std::memmove(symbol + offset, other, count);
      note_memory_written();
    } else {
      observe_copy(other, symbol + offset, count, resolved);
      std::memmove(other, symbol + offset, count);
    }
  }
  return cudaSuccess;
}
}  // namespace

cudaError_t check_copy_range(const char* api, void* dst, const void* src, size_t count, cudaMemcpyKind& kind) {
  return count == 0 ? cudaSuccess : check_copy(api, dst, src, count, kind);
}

void make_checked_copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (count == 0) return;
  observe_copy(dst, src, count, kind);
  std::memmove(dst, src, count);
  note_memory_written();
}

cudaError_t copy_rows(const char* api, const cudaMemcpy3DParms* p, CopyRows& out) {
  if (!p) return set_last_error(cudaErrorInvalidValue);
  if (p->srcArray || p->dstArray) {
    return refuse_call(api, cudaErrorNotSupported,
                       "the emulator has no CUDA arrays (cudaArray_t); copy between linear allocations "
                       "(srcPtr/dstPtr from make_cudaPitchedPtr) instead");
  }
  const cudaPitchedPtr s = p->srcPtr, d = p->dstPtr;
  const cudaExtent e = p->extent;
  if (p->srcPos.x + e.width > s.pitch || p->dstPos.x + e.width > d.pitch) {
    // cudaErrorInvalidValue, not ...InvalidPitchValue: as an H200 answers (CUDA 13.0).
    return refuse_call(api, cudaErrorInvalidValue, "a row of the copy runs past its pitch");
  }
  out.width = e.width;
  for (size_t z = 0; z < e.depth; ++z) {
    for (size_t y = 0; y < e.height; ++y) {
      const size_t src_row = (p->srcPos.z + z) * s.ysize + p->srcPos.y + y;
      const size_t dst_row = (p->dstPos.z + z) * d.ysize + p->dstPos.y + y;
      out.rows.emplace_back(static_cast<char*>(d.ptr) + dst_row * d.pitch + p->dstPos.x,
                            static_cast<const char*>(s.ptr) + src_row * s.pitch + p->srcPos.x);
    }
  }
  return cudaSuccess;
}

void harness_observe_copies(CopyObserver observer) { copy_observer = observer; }

cudaError_t copy_to_symbol(void* symbol, size_t symbol_size, const void* src, size_t count, size_t offset,
                           cudaMemcpyKind kind) {
  return symbol_copy(true, static_cast<char*>(symbol), symbol_size, const_cast<void*>(src), count, offset, kind);
}

cudaError_t copy_from_symbol(void* dst, const void* symbol, size_t symbol_size, size_t count, size_t offset,
                             cudaMemcpyKind kind) {
  return symbol_copy(false, const_cast<char*>(static_cast<const char*>(symbol)), symbol_size, dst, count, offset, kind);
}

}  // namespace gpulab::emu

using namespace gpulab::emu;

cudaError_t cudaMalloc(void** ptr, size_t size, const char* file, int line) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (!ptr) return refuse_call("cudaMalloc", cudaErrorInvalidValue, "the output pointer is null");
  if (size == 0) {
    *ptr = nullptr;
    return cudaSuccess;
  }
  void* p = device_allocate(size, "cudaMalloc", file, line);
  if (!p) {
    return refuse_call("cudaMalloc", cudaErrorMemoryAllocation,
                       "cannot allocate " + std::to_string(size) + " bytes at " + file + ":" + std::to_string(line));
  }
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int, const char* file, int line) {
  if (!ptr) return refuse_call("cudaMallocManaged", cudaErrorInvalidValue, "the output pointer is null");
  void* p = size ? device_allocate(size, "cudaMallocManaged", file, line) : nullptr;
  if (size && !p) return refuse_call("cudaMallocManaged", cudaErrorMemoryAllocation, "out of memory");
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  wait_for_all();  // as on a GPU, cudaFree waits for the device: queued kernels may still use the memory
  if (synchronize_errors() != cudaSuccess) return sticky_error();
  if (!ptr) return cudaSuccess;
  if (is_graph_memory(ptr)) {  // a graph's allocation keeps its memory for the graph's next launch
    mark_graph_memory(ptr, false);
    return cudaSuccess;
  }
  if (!device_free(ptr)) {
    return refuse_call(
        "cudaFree", cudaErrorInvalidValue,
        "the pointer is not the start of a live device allocation (freed twice, or not from cudaMalloc?)");
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return copy("cudaMemcpy", dst, src, count, kind);
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (count == 0) return cudaSuccess;
  const cudaError_t e = check_copy("cudaMemcpyAsync", dst, src, count, kind);
  if (e != cudaSuccess) return e;
  observe_copy(dst, src, count, kind);
  const auto work = [dst, src, count] {
    std::memmove(dst, src, count);
    note_memory_written();
  };
  if (capturing_graph(stream) || host_side_page_locked(dst, src, count, kind)) {
    submit(stream, work, "memcpy");
  } else {
    wait_for(last_ticket(stream));
    work();
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return set_last_error(cudaErrorInvalidPitchValue);
  for (size_t r = 0; r < height; ++r) {
    const cudaError_t e = copy("cudaMemcpy2D", static_cast<char*>(dst) + r * dpitch,
                               static_cast<const char*>(src) + r * spitch, width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  CopyRows r;
  if (const cudaError_t e = copy_rows("cudaMemcpy3D", p, r); e != cudaSuccess) return e;
  for (const auto& [dst, src] : r.rows) {
    const cudaError_t e = copy("cudaMemcpy3D", dst, src, r.width, p->kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  CopyRows r;
  if (const cudaError_t e = copy_rows("cudaMemcpy3DAsync", p, r); e != cudaSuccess) return e;
  for (const auto& [dst, src] : r.rows) {
    const cudaError_t e = cudaMemcpyAsync(dst, src, r.width, p->kind, stream);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

cudaError_t cudaMemset(void* ptr, int value, size_t count) {
  wait_for_all();
  if (sticky_error() != cudaSuccess) return sticky_error();
  std::string why = check_device_range(ptr, count, "the destination");
  if (!why.empty()) return refuse_call("cudaMemset", cudaErrorInvalidValue, why);
  if (count) {
    std::memset(ptr, value, count);
    note_memory_written();
  }
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream) {
  if (sticky_error() != cudaSuccess) return sticky_error();
  std::string why = check_device_range(ptr, count, "the destination");
  if (!why.empty()) return refuse_call("cudaMemsetAsync", cudaErrorInvalidValue, why);
  if (count)
    submit(
        stream,
        [ptr, value, count] {
          std::memset(ptr, value, count);
          note_memory_written();
        },
        "memset");
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  const size_t total = 16ull << 30;
  const size_t used = device_bytes_in_use();
  if (free_bytes) *free_bytes = used < total ? total - used : 0;
  if (total_bytes) *total_bytes = total;
  return cudaSuccess;
}
