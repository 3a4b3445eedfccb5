// device_functions.h on the emulator backend: the whole emulated CUDA runtime.
#pragma once
#include "gpulab/emu/cuda_emulation.hpp"
