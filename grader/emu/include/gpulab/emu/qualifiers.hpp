// CUDA function and variable qualifiers mapped onto plain C++ for the emulator.
// Kernels and device functions are ordinary host functions here; `__shared__`
// declarations inside functions are rewritten by the source rewriter, and the
// macro below only covers the namespace-scope form, which keeps one copy per
// worker thread (each worker runs one block at a time). `__noinline__` is left
// undefined: the C++ library spells its own attribute with that name, so the
// rewriter writes each qualifier `__noinline__` as `__attribute__((noinline))`.
#pragma once

#define __global__
#define __device__
#define __host__
#define __constant__
// __managed__ variables get a section of their own, so that the runtime tells them (host and
// device memory at once) from host variables, which a kernel may not touch
// (grader/emu/src/host_regions.hpp).
#if defined(__APPLE__)
#define __managed__
#else
#define __managed__ __attribute__((section("gpulab_managed")))
#endif
#define __shared__ static thread_local
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __grid_constant__
#define __CUDACC_EMU__ 1
#define GPULAB_EMULATOR 1
