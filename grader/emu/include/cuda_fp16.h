// cuda_fp16.h on the emulator backend: __half and __half2 (gpulab/emu/half.hpp).
#pragma once
#include "gpulab/emu/cuda_emulation.hpp"
#include "gpulab/emu/half.hpp"
