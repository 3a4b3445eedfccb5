// The version macros of CUDA 13.0 that existing programs test, with the values nvcc 13.0
// (V13.0.88) gives them: nvcc defines __NVCC__, __CUDACC_VER_*__, __CUDA_API_VER_*__ and the two
// feature macros below for every file it compiles (.cu, .cpp and .c alike; the toolchain passes
// them on the command line too), and CUDA's headers define CUDART_VERSION and the include guards
// cuda-samples' helper_cuda.h tests (checkCudaErrors/getLastCudaError only under
// __DRIVER_TYPES_H__, findCudaDevice under __CUDA_RUNTIME_H__). __CUDACC__ is nvcc's mark of a
// CUDA source: cuda_emulation.hpp defines it, for .cu files only.
#pragma once

#define __CUDA_RUNTIME_H__
#define __DRIVER_TYPES_H__
#define CUDART_VERSION 13000
#define __CUDART_API_VERSION CUDART_VERSION
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 88
#define __CUDA_API_VER_MAJOR__ 13
#define __CUDA_API_VER_MINOR__ 0
#define __NVCC_DIAG_PRAGMA_SUPPORT__ 1
#define __CUDACC_DEVICE_ATOMIC_BUILTINS__ 1
