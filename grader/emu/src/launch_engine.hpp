// The launch engine's entry point for one whole launch, for the callers that
// run a launch themselves (queued launches, graph replays, cooperative launches).
#pragma once
#include "gpulab/emu/kernel_launch.hpp"

namespace gpulab::emu {
// Runs every block of the launch to completion on the workers (the caller being one of them).
void run_launch(const LaunchRequest& request, const KernelBody& body);
// Checks the launch's configuration as a launch does; a bad one is reported and its error
// returned (and set as cudaGetLastError's). For launches kept to run later (graph nodes).
cudaError_t check_launch(const LaunchRequest& request);
}  // namespace gpulab::emu
