// Everything a .cu file sees on the emulator backend, in one include (forced into every .cu, as
// nvcc forces cuda_runtime.h in): __CUDACC__, nvcc's mark of a CUDA source, and the whole emulated
// runtime and device library. A host source (.cpp, .c) does not get this: its cuda_runtime.h is
// the runtime API alone (host_runtime.hpp), as CUDA's is without __CUDACC__.
#pragma once
#define __CUDACC__ 1
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "gpulab/emu/qualifiers.hpp"
#include "gpulab/emu/cuda_version.hpp"
#include "gpulab/emu/vector_types.hpp"
#include "gpulab/emu/runtime_types.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "gpulab/emu/execution_context.hpp"
#include "gpulab/emu/shared_memory.hpp"
#include "gpulab/emu/synchronization.hpp"
#include "gpulab/emu/thread_regions.hpp"
#include "gpulab/emu/warp_functions.hpp"
#include "gpulab/emu/atomics.hpp"
#include "gpulab/emu/device_math.hpp"
#include "gpulab/emu/kernel_launch.hpp"
#include "gpulab/emu/array_launch.hpp"
#include "gpulab/emu/inline_ptx.hpp"
// Last: these route libc names (clock, malloc, free) by macro, after every library declaration above.
#include "gpulab/emu/device_clock.hpp"
#include "gpulab/emu/device_heap.hpp"
