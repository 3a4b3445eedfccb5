// cuda_runtime_api.h on the emulator backend: in a .cu file (__CUDACC__) the whole emulated CUDA runtime; in a
// host source, the runtime API alone, as CUDA's own header gives a host compiler.
#pragma once
#ifdef __CUDACC__
#include "gpulab/emu/cuda_emulation.hpp"
#else
#include "gpulab/emu/host_runtime.hpp"
#endif
