// cuda_pipeline.h on the emulator backend: the asynchronous global-to-shared
// copies (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior).
#pragma once
#include "gpulab/emu/cuda_emulation.hpp"
#include "gpulab/emu/async_copy.hpp"
