// Sets this worker's gridDim and blockDim (launch_dims.cpp) for the launch whose blocks it runs.
#pragma once
#include "gpulab/emu/vector_types.hpp"

namespace gpulab::emu {
void set_launch_dims(const dim3& grid, const dim3& block);
}  // namespace gpulab::emu
