// A launch whose pointer argument points into host memory a GPU cannot reach (host_regions.hpp):
// on a GPU the kernel's first access to it fails with cudaErrorIllegalAddress, seen at the next
// synchronising call; here the launch is refused before it runs, with the same error, and a
// diagnostic names the kernel, the argument and what to do. Pointers hidden in integers or
// structures are not seen here; the checking build sees every access (grader/emu/check).
#pragma once

namespace gpulab::emu {

struct LaunchState;

// Reports and returns true when the launch must not run. `accesses_checked`: the checking build,
// which reports heap and stack accesses itself, at the access; only host variables (which it
// cannot tell from __device__ ones) are refused here then.
bool refuse_host_pointer_arguments(const LaunchState& launch, bool accesses_checked);

}  // namespace gpulab::emu
