// Runtime API: the versions a program can ask for. The emulator stands for the CUDA 13.0
// toolkit (cudaRuntimeGetVersion) running on a driver of the same version
// (cudaDriverGetVersion), the pair the course's GPU machines have. Also peer access,
// which a single device never has, and copies between peers (device 0 and device 0), in one
// dimension or three.
#include <string>
#include <utility>

#include "device_memory.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/cuda_version.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "memory_kinds.hpp"

using namespace gpulab::emu;

namespace {
// A peer copy's sides must be memory a device can address (device, managed or page-locked host
// memory): pageable host memory on either side is refused, as on a GPU
// (tests/gpu/expected/probe_copy_forms.txt). Said here in a peer copy's words; a pointer in the
// guard zone of a device allocation is left to the copy's own range check.
cudaError_t check_peer_sides(const char* api, const void* dst, const void* src) {
  for (const auto& [which, p] : {std::pair{"the destination", dst}, std::pair{"the source", src}}) {
    if (p && memory_kind(p) == MemoryKind::pageable && lookup_address(p).kind == AddressInfo::Kind::unknown) {
      return refuse_call(api, cudaErrorInvalidValue,
                         std::string(which) +
                             " is pageable host memory (malloc, new, the stack or a host variable), which a peer copy "
                             "cannot reach: it needs device, managed or page-locked memory (cudaMallocHost) on both "
                             "sides; copy to or from host memory with cudaMemcpy");
    }
  }
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaRuntimeGetVersion(int* version) {
  if (!version) return set_last_error(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return set_last_error(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
  if (!can_access) return set_last_error(cudaErrorInvalidValue);
  if (device != 0 || peer_device != 0) return set_last_error(cudaErrorInvalidDevice);
  *can_access = 0;
  return cudaSuccess;
}

// The only device is the current one, never a peer of itself; any other number names no device.
cudaError_t cudaDeviceEnablePeerAccess(int, unsigned int flags) {
  if (flags != 0) return set_last_error(cudaErrorInvalidValue);
  return set_last_error(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceDisablePeerAccess(int) { return set_last_error(cudaErrorInvalidDevice); }

cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int, int) {
  if (!value || attr < cudaDevP2PAttrPerformanceRank || attr > cudaDevP2PAttrOnlyPartialNativeAtomicSupported) {
    return set_last_error(cudaErrorInvalidValue);
  }
  return set_last_error(cudaErrorInvalidDevice);
}

cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t count) {
  if (dst_device != 0 || src_device != 0) return set_last_error(cudaErrorInvalidDevice);
  if (const cudaError_t e = check_peer_sides("cudaMemcpyPeer", dst, src); e != cudaSuccess) return e;
  return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t count,
                                cudaStream_t stream) {
  if (dst_device != 0 || src_device != 0) return set_last_error(cudaErrorInvalidDevice);
  if (const cudaError_t e = check_peer_sides("cudaMemcpyPeerAsync", dst, src); e != cudaSuccess) return e;
  return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}

namespace {
cudaMemcpy3DParms without_devices(const cudaMemcpy3DPeerParms& p) {
  cudaMemcpy3DParms q{};
  q.srcArray = p.srcArray;
  q.srcPos = p.srcPos;
  q.srcPtr = p.srcPtr;
  q.dstArray = p.dstArray;
  q.dstPos = p.dstPos;
  q.dstPtr = p.dstPtr;
  q.extent = p.extent;
  // As cudaMemcpyPeer: both sides must be memory a device can address (device, managed or
  // page-locked host memory); pageable host memory on either side is refused, as on a GPU
  // (tests/gpu/expected/probe_copy_forms.txt).
  q.kind = cudaMemcpyDeviceToDevice;
  return q;
}
}  // namespace

cudaError_t cudaMemcpy3DPeer(const cudaMemcpy3DPeerParms* p) {
  if (!p) return set_last_error(cudaErrorInvalidValue);
  if (p->srcDevice != 0 || p->dstDevice != 0) return set_last_error(cudaErrorInvalidDevice);
  if (const cudaError_t e = check_peer_sides("cudaMemcpy3DPeer", p->dstPtr.ptr, p->srcPtr.ptr); e != cudaSuccess) {
    return e;
  }
  const cudaMemcpy3DParms q = without_devices(*p);
  return cudaMemcpy3D(&q);
}

cudaError_t cudaMemcpy3DPeerAsync(const cudaMemcpy3DPeerParms* p, cudaStream_t stream) {
  if (!p) return set_last_error(cudaErrorInvalidValue);
  if (p->srcDevice != 0 || p->dstDevice != 0) return set_last_error(cudaErrorInvalidDevice);
  if (const cudaError_t e = check_peer_sides("cudaMemcpy3DPeerAsync", p->dstPtr.ptr, p->srcPtr.ptr); e != cudaSuccess) {
    return e;
  }
  const cudaMemcpy3DParms q = without_devices(*p);
  return cudaMemcpy3DAsync(&q, stream);
}
