// curand_kernel.h on the emulator backend: cuRAND's device API for the XORWOW (curandState) and
// Philox4_32_10 generators (gpulab/emu/curand_device.hpp). cuRAND's host API (curand.h, a
// library) is not provided.
#pragma once
#ifdef __CUDACC__
#include "gpulab/emu/cuda_emulation.hpp"
#else
#include "gpulab/emu/host_runtime.hpp"
#endif
#include "gpulab/emu/curand_device.hpp"
