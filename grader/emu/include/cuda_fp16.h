// cuda_fp16.h on the emulator backend: __half and __half2 (gpulab/emu/half.hpp).
#pragma once
#ifdef __CUDACC__
#include "gpulab/emu/cuda_emulation.hpp"
#else
#include "gpulab/emu/host_runtime.hpp"
#endif
#include "gpulab/emu/half.hpp"
