// How many CPUs this process may run on (Linux: its affinity mask, as taskset and Slurm set it;
// macOS: the active CPUs, since it has no affinity masks).
#pragma once

namespace gpulab::platform {
unsigned usable_cpus();  // at least 1
}  // namespace gpulab::platform
