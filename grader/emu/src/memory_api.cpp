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
#include "device_access.hpp"
#include "device_memory.hpp"
#include "graph_memory.hpp"
#include "device_printf.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/copy_observer.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "memory_kinds.hpp"
#include "page_locked.hpp"
#include "stream_capture.hpp"

namespace gpulab::emu {
namespace {
CopyObserver copy_observer = nullptr;

// The direction a copy takes, from its pointers (memory_kinds.hpp): device memory, or memory host
// code can read (pageable, page-locked, managed).
cudaMemcpyKind direction(const void* dst, const void* src) {
  const bool d = !host_readable(memory_kind(dst)), s = !host_readable(memory_kind(src));
  return d ? (s ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
           : (s ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
}

// Tells the harness's observer (copy_observer.hpp) of a copy about to be made, with the direction
// its pointers give (never the declared kind), and makes it with device memory open to the runtime.
void observe(void* dst, const void* src, size_t count) {
  if (!copy_observer) return;
  const DeviceAccess access;  // the observer may read what is copied
  copy_observer(dst, src, count, direction(dst, src));
}
void observe_and_copy(void* dst, const void* src, size_t count) {
  observe(dst, src, count);
  const DeviceAccess access;
  std::memmove(dst, src, count);
  note_memory_written();
}

// What CUDA checks of one side of a copy: a side in a device allocation must lie inside it;
// pageable host memory may not be declared as the device side (the only kind CUDA refuses: with
// unified addressing the pointers decide the direction, whatever the kind says).
cudaError_t check_side(const char* api, const char* which, const void* p, size_t count, bool declared_device,
                       MemoryKind kind) {
  if (kind == MemoryKind::pageable && declared_device) {
    const AddressInfo info = lookup_address(p);
    if (info.kind != AddressInfo::Kind::unknown) {  // in the guard zone of a device allocation
      return refuse_call(api, cudaErrorInvalidValue, check_device_range(p, count, which));
    }
    return refuse_call(api, cudaErrorInvalidValue,
                       std::string(which) +
                           " is pageable host memory (malloc, new, the stack or a host variable) but the kind "
                           "says it is device memory; use the kind of the real direction, or cudaMemcpyDefault");
  }
  if (kind == MemoryKind::device || kind == MemoryKind::managed) {
    if (!is_device_symbol(p) || lookup_address(p).kind != AddressInfo::Kind::unknown) {
      std::string why = check_device_range(p, count, which);
      if (!why.empty()) return refuse_call(api, cudaErrorInvalidValue, why);
    }
  } else if (lookup_address(p).kind != AddressInfo::Kind::unknown) {
    return refuse_call(api, cudaErrorInvalidValue, check_device_range(p, count, which));
  }
  return cudaSuccess;
}

bool declares_device_destination(cudaMemcpyKind k) {
  return k == cudaMemcpyHostToDevice || k == cudaMemcpyDeviceToDevice;
}
bool declares_device_source(cudaMemcpyKind k) { return k == cudaMemcpyDeviceToHost || k == cudaMemcpyDeviceToDevice; }

// Checks a copy as CUDA 13 does (tests/gpu/expected/probe_copy_kinds.txt, recorded on an H200):
// the kind must be a cudaMemcpyKind; each side must be what it is declared as, except that only
// pageable host memory declared as a device side is refused; device sides must fit their
// allocations. On an error, reports it.
cudaError_t check_copy(const char* api, void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
    return refuse_call(api, cudaErrorInvalidMemcpyDirection,
                       "the copy kind " + std::to_string(kind) + " is not a cudaMemcpyKind");
  }
  if (!dst || !src) return refuse_call(api, cudaErrorInvalidValue, "a null pointer was passed");
  const cudaError_t d =
      check_side(api, "the destination", dst, count, declares_device_destination(kind), memory_kind(dst));
  if (d != cudaSuccess) return d;
  return check_side(api, "the source", src, count, declares_device_source(kind), memory_kind(src));
}

cudaError_t copy(const char* api, void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  wait_for_all();
  if (synchronize_errors() != cudaSuccess) return sticky_error();
  flush_device_output();
  if (count == 0) return cudaSuccess;
  const cudaError_t e = check_copy(api, dst, src, count, kind);
  if (e != cudaSuccess) return e;
  observe_and_copy(dst, src, count);
  return cudaSuccess;
}

// Neither side pageable: the copy runs asynchronously, as CUDA's does.
bool host_side_page_locked(const void* dst, const void* src) {
  return memory_kind(dst) != MemoryKind::pageable && memory_kind(src) != MemoryKind::pageable;
}
}  // namespace

namespace {
// Copies to and from a __constant__ or __device__ variable. The symbol is device memory; the other
// side's kind decides the direction, as in cudaMemcpy, and only pageable memory declared as the
// device side (cudaMemcpyDeviceToDevice) is refused. `to_symbol` says which way.
cudaError_t symbol_copy(bool to_symbol, char* symbol, size_t symbol_size, void* other, size_t count, size_t offset,
                        cudaMemcpyKind kind) {
  const char* api = to_symbol ? "cudaMemcpyToSymbol" : "cudaMemcpyFromSymbol";
  note_device_symbol(symbol, symbol_size);
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
  if (count == 0) return cudaSuccess;
  if (!other) return refuse_call(api, cudaErrorInvalidValue, "a null pointer was passed");
  const cudaError_t e = check_side(api, to_symbol ? "the source" : "the destination", other, count,
                                   kind == cudaMemcpyDeviceToDevice, memory_kind(other));
  if (e != cudaSuccess) return e;
  if (to_symbol) observe_and_copy(symbol + offset, other, count);
  else observe_and_copy(other, symbol + offset, count);
  return cudaSuccess;
}
}  // namespace

cudaError_t check_copy_range(const char* api, void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return count == 0 ? cudaSuccess : check_copy(api, dst, src, count, kind);
}

void make_checked_copy(void* dst, const void* src, size_t count) {
  if (count) observe_and_copy(dst, src, count);
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
  if (capturing_graph(stream)) {  // observed each time its graph runs, as a graph's memcpy node
    submit(
        stream, [dst, src, count] { observe_and_copy(dst, src, count); }, "memcpy");
    return cudaSuccess;
  }
  observe(dst, src, count);  // while the program's host code runs, as the harness follows it
  const auto work = [dst, src, count] {
    const DeviceAccess access;
    std::memmove(dst, src, count);
    note_memory_written();
  };
  if (host_side_page_locked(dst, src)) {
    submit(stream, work, "memcpy");
  } else {
    wait_for(last_ticket_ordering(stream));
    work();
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return set_last_error(cudaErrorInvalidPitchValue);
  const DeviceAccess access;  // once for all the rows (toggled protection opens and closes each time)
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
  const DeviceAccess access;  // once for all the rows
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

cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                                 cudaMemcpyAttributes* attrs, size_t* attrs_indices, size_t num_attrs,
                                 cudaStream_t stream) {
  if (count == 0 || !dsts || !srcs || !sizes || num_attrs == 0 || num_attrs > count || !attrs || !attrs_indices ||
      attrs_indices[0] != 0) {
    return refuse_call("cudaMemcpyBatchAsync", cudaErrorInvalidValue,
                       "a batch needs its copies, at least one attribute, and the first attribute for copy 0");
  }
  for (size_t i = 0; i < num_attrs; ++i) {
    if (attrs[i].srcAccessOrder == cudaMemcpySrcAccessOrderInvalid ||
        attrs[i].srcAccessOrder > cudaMemcpySrcAccessOrderAny) {
      return refuse_call("cudaMemcpyBatchAsync", cudaErrorInvalidValue, "an attribute's srcAccessOrder is not one");
    }
  }
  for (size_t i = 0; i < count; ++i) {
    const cudaError_t e = cudaMemcpyAsync(dsts[i], srcs[i], sizes[i], cudaMemcpyDefault, stream);
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
    const DeviceAccess access;
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
          const DeviceAccess access;
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
