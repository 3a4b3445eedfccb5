// Prints what the CUDA runtime answers for the copy forms other than cudaMemcpy between every
// pair of pageable host memory (malloc), page-locked host memory (cudaMallocHost), device memory
// (cudaMalloc) and managed memory (cudaMallocManaged): cudaMemcpyPeer, cudaMemcpy3DPeer (one
// row), cudaMemcpy2D and cudaMemcpy3D with cudaMemcpyDefault, and whether the bytes arrived.
// Run on a GPU, its output is recorded in expected/; the emulator must print the same lines (the
// grader's copy accounting relies on the emulator refusing what a GPU refuses).
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
constexpr size_t kBytes = 64;

struct Memory {
  const char* name;
  char* ptr;
  bool device_only;  // the host cannot read it directly
};

void fill(const Memory& m, unsigned char value) {
  if (m.device_only) {
    cudaMemset(m.ptr, value, kBytes);
    cudaDeviceSynchronize();
  } else {
    std::memset(m.ptr, value, kBytes);
  }
}

bool holds(const Memory& m, unsigned char value) {
  unsigned char seen[kBytes];
  if (m.device_only) {
    if (cudaMemcpy(seen, m.ptr, kBytes, cudaMemcpyDeviceToHost) != cudaSuccess) return false;
  } else {
    std::memcpy(seen, m.ptr, kBytes);
  }
  for (unsigned char b : seen)
    if (b != value) return false;
  return true;
}

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
  Memory memories[4] = {{"pageable", static_cast<char*>(std::malloc(kBytes)), false},
                        {"pinned", nullptr, false},
                        {"device", nullptr, true},
                        {"managed", nullptr, false}};
  cudaMallocHost(reinterpret_cast<void**>(&memories[1].ptr), kBytes);
  cudaMalloc(reinterpret_cast<void**>(&memories[2].ptr), kBytes);
  cudaMallocManaged(reinterpret_cast<void**>(&memories[3].ptr), kBytes);
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
  cudaFree(memories[3].ptr);
  cudaFree(memories[2].ptr);
  cudaFreeHost(memories[1].ptr);
  std::free(memories[0].ptr);
  return 0;
}
