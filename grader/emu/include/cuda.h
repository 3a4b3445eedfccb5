// cuda.h on the emulator backend: the runtime (the whole emulated runtime in a .cu file, the
// runtime API in a host source; the driver API itself is not emulated) and the driver API's
// version macro, which programs test to pick code paths.
#pragma once
#ifdef __CUDACC__
#include "gpulab/emu/cuda_emulation.hpp"
#else
#include "gpulab/emu/host_runtime.hpp"
#endif

#define CUDA_VERSION 13000
