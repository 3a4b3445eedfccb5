// cuda.h on the emulator backend: the whole emulated CUDA runtime (the driver API itself is not
// emulated), and the driver API's version macro, which programs test to pick code paths.
#pragma once
#include "gpulab/emu/cuda_emulation.hpp"

#define CUDA_VERSION 13000
