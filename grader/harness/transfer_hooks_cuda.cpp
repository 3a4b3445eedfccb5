// transfer_hooks.hpp on a GPU: the program is linked with -Wl,--wrap=<entry>
// for each entry point of copy_entry_points.hpp (grade/harness_build.cpp adds
// the flags), so every copy and every allocation the submission asks for
// passes through here first. A copy that succeeded counts its bytes when its
// destination is memory the host reads (pageable, page-locked, registered or
// managed) and its source memory the GPU holds (device or managed memory, a
// symbol, a CUDA array): where the pointers point decides, never the declared
// kind (CUDA itself ignores the kind wherever the pointers say otherwise,
// tests/gpu/expected/probe_copy_kinds.txt). A copy into a stream that is
// being captured moves nothing yet: it is counted when its graph runs
// (graph_copies_cuda.cpp). Allocations are classified by what the runtime
// says of the pointer they return, so that host-visible memory counts however
// it was obtained (cudaMallocHost, a pool located in host memory, ...).
#include <cuda_runtime.h>

#include "harness/copy_entry_points.hpp"
#include "harness/leftover_allocations.hpp"
#include "harness/transfer_hooks.hpp"
#include "harness/transfer_log.hpp"

namespace gpulab::harness {
void install_transfer_hooks() {}

cudaMemoryType memory_type(const void* p) {
  if (!p) return cudaMemoryTypeUnregistered;
  const cudaError_t before = cudaPeekAtLastError();
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    if (before == cudaSuccess) cudaGetLastError();  // the query's error is not the submission's to see
    return cudaMemoryTypeUnregistered;
  }
  return a.type;
}

unsigned long long bytes_into_host(const void* dst, bool source_on_device, unsigned long long bytes) {
  if (!source_on_device || !dst) return 0;
  return memory_type(dst) == cudaMemoryTypeDevice ? 0 : bytes;
}

bool on_device(const void* p) {
  const cudaMemoryType t = memory_type(p);
  return t == cudaMemoryTypeDevice || t == cudaMemoryTypeManaged;
}

unsigned long long array_element_bytes(cudaArray_const_t array) {
  cudaChannelFormatDesc desc{};
  cudaExtent extent{};
  unsigned int flags = 0;
  const cudaError_t before = cudaPeekAtLastError();
  if (cudaArrayGetInfo(&desc, &extent, &flags, const_cast<cudaArray_t>(array)) != cudaSuccess) {
    if (before == cudaSuccess) cudaGetLastError();
    return 16;  // the widest element there is: count too much rather than too little
  }
  const unsigned long long bits = static_cast<unsigned>(desc.x) + static_cast<unsigned>(desc.y) +
                                  static_cast<unsigned>(desc.z) + static_cast<unsigned>(desc.w);
  return bits ? (bits + 7) / 8 : 16;
}

unsigned long long bytes_into_host(const cudaMemcpy3DParms& p) {
  if (p.dstArray || !p.dstPtr.ptr) return 0;  // into a CUDA array: device memory
  const bool from_device = p.srcArray || on_device(p.srcPtr.ptr);
  // With an array taking part the extent's width counts elements, otherwise bytes.
  const unsigned long long width = p.srcArray ? p.extent.width * array_element_bytes(p.srcArray) : p.extent.width;
  return bytes_into_host(p.dstPtr.ptr, from_device, width * p.extent.height * p.extent.depth);
}
}  // namespace gpulab::harness

namespace {
using gpulab::harness::bytes_into_host;
using gpulab::harness::memory_type;
using gpulab::harness::on_device;

// Whether work queued on `stream` now is being captured into a graph rather than run. The legacy
// default stream cannot be captured (and asking about it during another stream's capture is an
// error of its own); stream 0 of a per-thread-default-stream call is the per-thread stream.
bool capturing(cudaStream_t stream, bool per_thread_default) {
  if (stream == nullptr) {
    if (!per_thread_default) return false;
    stream = cudaStreamPerThread;
  }
  if (stream == cudaStreamLegacy) return false;
  const cudaError_t before = cudaPeekAtLastError();
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
    if (before == cudaSuccess) cudaGetLastError();
    return true;  // cannot tell: its graph's launch counts the copy, if it ever runs
  }
  return status != cudaStreamCaptureStatusNone;
}

void count_copy(cudaError_t result, unsigned long long bytes) {
  if (result == cudaSuccess && bytes) gpulab::harness::note_bytes_to_host("copy", bytes);
}

// A copy's bytes are worked out only while the submission's call is recorded (the harness's own
// copies, and the timed calls, cost no query).
#define GPULAB_COUNT(stream, bytes) \
  if (r == cudaSuccess && gpulab::harness::recording_transfers() && !capturing(stream, per_thread)) count_copy(r, bytes)

unsigned long long peer_bytes_into_host(const cudaMemcpy3DPeerParms* p) {
  if (!p) return 0;
  cudaMemcpy3DParms q{};
  q.srcArray = p->srcArray;
  q.srcPos = p->srcPos;
  q.srcPtr = p->srcPtr;
  q.dstArray = p->dstArray;
  q.dstPos = p->dstPos;
  q.dstPtr = p->dstPtr;
  q.extent = p->extent;
  return bytes_into_host(q);
}

unsigned long long batch_bytes_into_host(void* const* dsts, const void* const* srcs, const size_t* sizes,
                                         size_t count) {
  unsigned long long total = 0;
  for (size_t i = 0; dsts && srcs && sizes && i < count; ++i)
    total += bytes_into_host(dsts[i], on_device(srcs[i]), sizes[i]);
  return total;
}

unsigned long long batch_3d_bytes_into_host(size_t count, const cudaMemcpy3DBatchOp* ops) {
  unsigned long long total = 0;
  for (size_t i = 0; ops && i < count; ++i) {
    const cudaMemcpy3DBatchOp& op = ops[i];
    if (op.dst.type != cudaMemcpyOperandTypePointer) continue;  // into an array: device memory
    const bool from_array = op.src.type == cudaMemcpyOperandTypeArray;
    const bool from_device = from_array || on_device(op.src.op.ptr.ptr);
    const unsigned long long element = from_array ? gpulab::harness::array_element_bytes(op.src.op.array.array) : 1;
    total +=
        bytes_into_host(op.dst.op.ptr.ptr, from_device, op.extent.width * element * op.extent.height * op.extent.depth);
  }
  return total;
}

// Host-visible memory: what the runtime says of a new allocation's pointer decides its route. Every
// allocation of the submission's calls is also kept until freed (leftover_allocations_cuda.cpp).
void note_allocation(cudaError_t result, void** ptr, size_t bytes, const char* page_locked_route) {
  if (result != cudaSuccess || !ptr || !*ptr) return;
  const cudaMemoryType type = memory_type(*ptr);
  switch (type) {
    case cudaMemoryTypeManaged: gpulab::harness::note_host_visible_added(*ptr, bytes, "managed_memory"); break;
    case cudaMemoryTypeHost: gpulab::harness::note_host_visible_added(*ptr, bytes, page_locked_route); break;
    default: break;
  }
  gpulab::harness::note_submission_allocation(*ptr, type == cudaMemoryTypeHost
                                                        ? gpulab::harness::AllocationKind::page_locked
                                                        : gpulab::harness::AllocationKind::device);
}

void released(cudaError_t result, void* ptr) {
  if (result != cudaSuccess) return;
  gpulab::harness::note_host_visible_removed(ptr);
  gpulab::harness::note_submission_free(ptr);
}
}  // namespace

extern "C" {
// One wrapper per entry point and per stream flavour: the plain name, _ptds (per-thread default
// stream, synchronous) or _ptsz (per-thread default stream, asynchronous). `after` runs once the
// real call has returned `r`; `ptd` says whether this is a per-thread-default-stream flavour.
#define GPULAB_WRAP(name, params, args, ptd, after)   \
  cudaError_t __real_##name params;                   \
  cudaError_t __wrap_##name params {                  \
    const cudaError_t r = __real_##name args;         \
    [[maybe_unused]] constexpr bool per_thread = ptd; \
    after;                                            \
    return r;                                         \
  }
#define GPULAB_WRAP_BOTH(name, suffix, params, args, after) \
  GPULAB_WRAP(name, params, args, false, after)             \
  GPULAB_WRAP(name##suffix, params, args, true, after)

// Copies.
GPULAB_WRAP_BOTH(cudaMemcpy, _ptds, (void* d, const void* s, size_t n, cudaMemcpyKind k), (d, s, n, k),
                 GPULAB_COUNT(nullptr, bytes_into_host(d, on_device(s), n)))
GPULAB_WRAP_BOTH(cudaMemcpyAsync, _ptsz, (void* d, const void* s, size_t n, cudaMemcpyKind k, cudaStream_t st),
                 (d, s, n, k, st), GPULAB_COUNT(st, bytes_into_host(d, on_device(s), n)))
GPULAB_WRAP_BOTH(cudaMemcpy2D, _ptds,
                 (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k),
                 (d, dp, s, sp, w, h, k), GPULAB_COUNT(nullptr, bytes_into_host(d, on_device(s), w* h)))
GPULAB_WRAP_BOTH(cudaMemcpy2DAsync, _ptsz,
                 (void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h, cudaMemcpyKind k, cudaStream_t st),
                 (d, dp, s, sp, w, h, k, st), GPULAB_COUNT(st, bytes_into_host(d, on_device(s), w* h)))
GPULAB_WRAP_BOTH(cudaMemcpy3D, _ptds, (const cudaMemcpy3DParms* p), (p),
                 if (p) GPULAB_COUNT(nullptr, bytes_into_host(*p)))
GPULAB_WRAP_BOTH(cudaMemcpy3DAsync, _ptsz, (const cudaMemcpy3DParms* p, cudaStream_t st), (p, st),
                 if (p) GPULAB_COUNT(st, bytes_into_host(*p)))
GPULAB_WRAP_BOTH(cudaMemcpy3DPeer, _ptds, (const cudaMemcpy3DPeerParms* p), (p),
                 GPULAB_COUNT(nullptr, peer_bytes_into_host(p)))
GPULAB_WRAP_BOTH(cudaMemcpy3DPeerAsync, _ptsz, (const cudaMemcpy3DPeerParms* p, cudaStream_t st), (p, st),
                 GPULAB_COUNT(st, peer_bytes_into_host(p)))
GPULAB_WRAP(cudaMemcpyPeer, (void* d, int dd, const void* s, int sd, size_t n), (d, dd, s, sd, n), false,
            GPULAB_COUNT(nullptr, bytes_into_host(d, on_device(s), n)))
GPULAB_WRAP(cudaMemcpyPeerAsync, (void* d, int dd, const void* s, int sd, size_t n, cudaStream_t st),
            (d, dd, s, sd, n, st), false, GPULAB_COUNT(st, bytes_into_host(d, on_device(s), n)))
GPULAB_WRAP_BOTH(cudaMemcpyFromSymbol, _ptds, (void* d, const void* sym, size_t n, size_t o, cudaMemcpyKind k),
                 (d, sym, n, o, k), GPULAB_COUNT(nullptr, bytes_into_host(d, true, n)))
GPULAB_WRAP_BOTH(cudaMemcpyFromSymbolAsync, _ptsz,
                 (void* d, const void* sym, size_t n, size_t o, cudaMemcpyKind k, cudaStream_t st),
                 (d, sym, n, o, k, st), GPULAB_COUNT(st, bytes_into_host(d, true, n)))
GPULAB_WRAP_BOTH(cudaMemcpyFromArray, _ptds,
                 (void* d, cudaArray_const_t a, size_t wo, size_t ho, size_t n, cudaMemcpyKind k), (d, a, wo, ho, n, k),
                 GPULAB_COUNT(nullptr, bytes_into_host(d, true, n)))
GPULAB_WRAP_BOTH(cudaMemcpyFromArrayAsync, _ptsz,
                 (void* d, cudaArray_const_t a, size_t wo, size_t ho, size_t n, cudaMemcpyKind k, cudaStream_t st),
                 (d, a, wo, ho, n, k, st), GPULAB_COUNT(st, bytes_into_host(d, true, n)))
GPULAB_WRAP_BOTH(cudaMemcpy2DFromArray, _ptds,
                 (void* d, size_t dp, cudaArray_const_t a, size_t wo, size_t ho, size_t w, size_t h, cudaMemcpyKind k),
                 (d, dp, a, wo, ho, w, h, k), GPULAB_COUNT(nullptr, bytes_into_host(d, true, w* h)))
GPULAB_WRAP_BOTH(cudaMemcpy2DFromArrayAsync, _ptsz,
                 (void* d, size_t dp, cudaArray_const_t a, size_t wo, size_t ho, size_t w, size_t h, cudaMemcpyKind k,
                  cudaStream_t st),
                 (d, dp, a, wo, ho, w, h, k, st), GPULAB_COUNT(st, bytes_into_host(d, true, w* h)))
GPULAB_WRAP_BOTH(cudaMemcpyBatchAsync, _ptsz,
                 (void* const* d, const void* const* s, const size_t* n, size_t count, cudaMemcpyAttributes* a,
                  size_t* ai, size_t na, cudaStream_t st),
                 (d, s, n, count, a, ai, na, st), GPULAB_COUNT(st, batch_bytes_into_host(d, s, n, count)))
GPULAB_WRAP_BOTH(cudaMemcpy3DBatchAsync, _ptsz,
                 (size_t count, cudaMemcpy3DBatchOp* ops, unsigned long long flags, cudaStream_t st),
                 (count, ops, flags, st), GPULAB_COUNT(st, batch_3d_bytes_into_host(count, ops)))

// Allocations that may be host-visible, and their release.
GPULAB_WRAP(cudaMallocManaged, (void** p, size_t n, unsigned int f), (p, n, f), false,
            note_allocation(r, p, n, "page_locked_memory"))
GPULAB_WRAP(cudaMallocHost, (void** p, size_t n), (p, n), false, note_allocation(r, p, n, "page_locked_memory"))
GPULAB_WRAP(cudaHostAlloc, (void** p, size_t n, unsigned int f), (p, n, f), false,
            note_allocation(r, p, n, "page_locked_memory"))
GPULAB_WRAP(
    cudaHostRegister, (void* p, size_t n, unsigned int f), (p, n, f), false, if (r == cudaSuccess && p) {
      gpulab::harness::note_host_visible_added(p, n, "registered_memory");
      gpulab::harness::note_submission_allocation(p, gpulab::harness::AllocationKind::registered);
    })
GPULAB_WRAP_BOTH(cudaMallocAsync, _ptsz, (void** p, size_t n, cudaStream_t st), (p, n, st),
                 note_allocation(r, p, n, "host_memory_pool"))
GPULAB_WRAP_BOTH(cudaMallocFromPoolAsync, _ptsz, (void** p, size_t n, cudaMemPool_t pool, cudaStream_t st),
                 (p, n, pool, st), note_allocation(r, p, n, "host_memory_pool"))
GPULAB_WRAP(cudaFree, (void* p), (p), false, released(r, p))
GPULAB_WRAP(cudaFreeHost, (void* p), (p), false, released(r, p))
GPULAB_WRAP(cudaHostUnregister, (void* p), (p), false, released(r, p))
GPULAB_WRAP_BOTH(cudaFreeAsync, _ptsz, (void* p, cudaStream_t st), (p, st), released(r, p))
#undef GPULAB_WRAP_BOTH
#undef GPULAB_WRAP
#undef GPULAB_COUNT
}
