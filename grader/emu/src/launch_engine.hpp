// The launch engine's entry point for one whole launch, for the callers that
// run a launch themselves (queued launches, graph replays, cooperative launches).
#pragma once
#include "gpulab/emu/kernel_launch.hpp"

namespace gpulab::emu {
// Runs every block of the launch to completion on the workers (the caller being one of them).
void run_launch(const LaunchRequest& request, const KernelBody& body);
}  // namespace gpulab::emu
