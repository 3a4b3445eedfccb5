// Prints what the CUDA runtime answers for the copy forms other than cudaMemcpy between every
// pair of pageable host memory (malloc), page-locked host memory (cudaMallocHost), device memory
// (cudaMalloc) and managed memory (cudaMallocManaged): cudaMemcpyPeer, cudaMemcpy3DPeer (one
// row), cudaMemcpy2D and cudaMemcpy3D with cudaMemcpyDefault, and whether the bytes arrived.
// Run on a GPU, its output is recorded in expected/; the emulator must print the same lines (the
// grader's copy accounting relies on the emulator refusing what a GPU refuses).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "probe_memories.cuh"

namespace {
using probe::fill;
using probe::holds;
using probe::kBytes;
using probe::Memory;

cudaError_t peer(const Memory& dst, const Memory& src) { return cudaMemcpyPeer(dst.ptr, 0, src.ptr, 0, kBytes); }

cudaError_t peer_3d(const Memory& dst, const Memory& src) {
  cudaMemcpy3DPeerParms p{};
  p.srcPtr = make_cudaPitchedPtr(src.ptr, kBytes, kBytes, 1);
  p.dstPtr = make_cudaPitchedPtr(dst.ptr, kBytes, kBytes, 1);
  p.extent = make_cudaExtent(kBytes, 1, 1);
  p.srcDevice = 0;
  p.dstDevice = 0;
  return cudaMemcpy3DPeer(&p);
}

cudaError_t copy_2d(const Memory& dst, const Memory& src) {
  return cudaMemcpy2D(dst.ptr, kBytes / 4, src.ptr, kBytes / 4, kBytes / 4, 4, cudaMemcpyDefault);
}

cudaError_t copy_3d(const Memory& dst, const Memory& src) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(src.ptr, kBytes, kBytes, 1);
  p.dstPtr = make_cudaPitchedPtr(dst.ptr, kBytes, kBytes, 1);
  p.extent = make_cudaExtent(kBytes, 1, 1);
  p.kind = cudaMemcpyDefault;
  return cudaMemcpy3D(&p);
}

struct Form {
  const char* name;
  cudaError_t (*copy)(const Memory&, const Memory&);
};
}  // namespace

int main() {
  probe::Memories owned;
  Memory (&memories)[4] = owned.all;
  const Form forms[4] = {{"Peer", peer}, {"3DPeer", peer_3d}, {"2D", copy_2d}, {"3D", copy_3d}};
  std::printf("copies of %zu bytes: form, destination <- source: error, bytes arrived\n", kBytes);
  for (const Form& form : forms) {
    for (const Memory& dst : memories) {
      for (const Memory& src : memories) {
        if (&dst == &src) continue;
        fill(src, 0x5A);
        fill(dst, 0x00);
        const cudaError_t e = form.copy(dst, src);
        const cudaError_t last = cudaGetLastError();
        cudaDeviceSynchronize();
        std::printf("%-7s %-8s <- %-8s %-28s last %-28s arrived %s\n", form.name, dst.name, src.name,
                    cudaGetErrorName(e), cudaGetErrorName(last), holds(dst, 0x5A) ? "yes" : "no");
      }
    }
  }
  return 0;
}
