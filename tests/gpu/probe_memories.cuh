// Shared by the copy probes (probe_copy_kinds.cu, probe_copy_forms.cu): 64 bytes of each kind of
// memory a copy can meet, filled and checked the way that works for each (device memory only
// through the runtime).
#pragma once
#include <cstdlib>
#include <cstring>

namespace probe {
constexpr size_t kBytes = 64;

struct Memory {
  const char* name;
  char* ptr;
  bool device_only;  // the host cannot read it directly
};

inline void fill(const Memory& m, unsigned char value) {
  if (m.device_only) {
    cudaMemset(m.ptr, value, kBytes);
    cudaDeviceSynchronize();
  } else {
    std::memset(m.ptr, value, kBytes);
  }
}

inline bool holds(const Memory& m, unsigned char value) {
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

// Pageable, pinned (cudaMallocHost), device (cudaMalloc) and managed memory, in that order.
struct Memories {
  Memory all[4] = {{"pageable", static_cast<char*>(std::malloc(kBytes)), false},
                   {"pinned", nullptr, false},
                   {"device", nullptr, true},
                   {"managed", nullptr, false}};
  Memories() {
    cudaMallocHost(reinterpret_cast<void**>(&all[1].ptr), kBytes);
    cudaMalloc(reinterpret_cast<void**>(&all[2].ptr), kBytes);
    cudaMallocManaged(reinterpret_cast<void**>(&all[3].ptr), kBytes);
  }
  ~Memories() {
    cudaFree(all[3].ptr);
    cudaFree(all[2].ptr);
    cudaFreeHost(all[1].ptr);
    std::free(all[0].ptr);
  }
};
}  // namespace probe
