// Minimal stand-in for the emulator runtime (::gpulab::emu, dim3, CUDA qualifiers), so the compile tests
// can check with `g++ -fsyntax-only` that the rewriter emits valid C++. The bodies do nothing useful; they
// exist because templates used with local (lambda) types must be defined, and run() calls the kernel
// wrapper so that the kernel's arguments are type-checked too.
#pragma once

#include <new>
#include <type_traits>

struct uint3 {
  unsigned x, y, z;
};
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
using cudaStream_t = void*;

namespace gpulab::emu {
struct launcher {
  launcher(const char* kernel, int line, dim3 grid, dim3 block, unsigned long shared_bytes = 0,
           void* stream = nullptr) {
    (void)kernel, (void)line, (void)grid, (void)block, (void)shared_bytes, (void)stream;
  }
  template <class F, class... A> void run(F kernel, A... args) {
    if (false) kernel(args...);
  }
};
template <class T, class Tag> T& shared_variable(Tag) {
  static T variable;
  return variable;
}
template <class T> T* dynamic_shared() { return nullptr; }
struct namespace_shared_registration {
  namespace_shared_registration(void* (*)(), unsigned long) {}
};
struct kernel_registration {
  template <class... P> kernel_registration(void (*)(P...), const char*) {}
};
template <class T> struct dynamic_shared_array {
  operator T*() const { return nullptr; }
};
// The region form's runtime (gpulab/emu/thread_regions.hpp).
struct BlockContext {
  uint3 block_idx;
};
enum class WarpOp : int { shfl_idx, shfl_up, shfl_down, shfl_xor, ballot, any, all, sync, match_any };
struct RegionBlock {
  dim3 dim;
  bool begin(bool = false) { return false; }
  unsigned threads() const { return 0; }
  void at(unsigned) const {}
  void at(unsigned, unsigned, unsigned, unsigned) const {}
  void barrier() {}
  int count(const int*) const { return 0; }
  int all(const int*) const { return 0; }
  int any(const int*) const { return 0; }
  template <class T> T* storage() { return nullptr; }
  void warp(WarpOp, unsigned, int, const unsigned long long*, const int*, unsigned long long*, const char*, int) const {
  }
};
struct RegionScope {
  explicit RegionScope(RegionBlock&) {}
  ~RegionScope() {}
};
inline void* region_slot(const volatile void* p) { return const_cast<void*>(p); }
template <class T> using region_value_t = std::remove_cv_t<std::remove_reference_t<T>>;
struct region_note {
  region_note(const char*, const char*, int, int, const char*) {}
};
}  // namespace gpulab::emu
extern gpulab::emu::BlockContext* gpulab_emu_block;
#include "../../grader/emu/include/gpulab/emu/region_loop_macros.hpp"  // the runtime's own loops
#include "../../grader/emu/include/gpulab/emu/region_warps.hpp"        // and its warp values

#define __global__
#define __device__
#define __host__
#define __shared__ static thread_local
#define __constant__
#define __launch_bounds__(...)
#define __align__(n) alignas(n)

extern dim3 threadIdx, blockIdx, blockDim, gridDim;
void __syncthreads();
template <class T> T __shfl_sync(unsigned, T var, int, int = 32) { return var; }
template <class T> T __shfl_up_sync(unsigned, T var, unsigned, int = 32) { return var; }
template <class T> T __shfl_down_sync(unsigned, T var, unsigned, int = 32) { return var; }
template <class T> T __shfl_xor_sync(unsigned, T var, int, int = 32) { return var; }
unsigned __ballot_sync(unsigned, int);
int __any_sync(unsigned, int);
int __all_sync(unsigned, int);
void __syncwarp(unsigned = 0xffffffffu);
