// How many kernels the submission launched: the emulator counts its own
// launches; on a GPU the link wraps the CUDA runtime's launch entry points
// (see launch_counter_cuda.cpp). -1 where nothing counts.
#pragma once

namespace gpulab::harness {
long long kernel_launches_so_far();
}
