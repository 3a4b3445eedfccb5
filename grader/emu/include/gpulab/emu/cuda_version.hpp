// The version and include-guard macros of CUDA 13.0's headers that existing programs test:
// cuda-samples' helper_cuda.h defines checkCudaErrors/getLastCudaError only under
// __DRIVER_TYPES_H__ and findCudaDevice under __CUDA_RUNTIME_H__, and code picks API
// variants with CUDART_VERSION or __CUDACC_VER_MAJOR__. Values as nvcc 13.0 (V13.0.88)
// defines them. __CUDACC__ is left undefined: the C++ library, Boost and Catch2 switch
// to nvcc-specific code under it, which the host compiler cannot build.
#pragma once

#define __CUDA_RUNTIME_H__
#define __DRIVER_TYPES_H__
#define CUDART_VERSION 13000
#define __CUDART_API_VERSION CUDART_VERSION
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 88
