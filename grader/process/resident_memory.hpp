// The memory a process and all its descendants hold in RAM (resident set),
// read from /proc. It bounds the memory of runs whose address space cannot
// be limited: a CUDA program reserves far more virtual memory than it uses
// (the driver maps GPU memory and unified addressing into the process), so
// RLIMIT_AS would stop every CUDA program and RLIMIT_DATA does not see those
// mappings, while the resident set counts what a memory bomb really takes.
#pragma once
#include <sys/types.h>

#include <cstddef>

namespace gpulab::process {

// Bytes resident in `root` and every process descended from it (0 if none is left).
size_t tree_resident_bytes(pid_t root);

}  // namespace gpulab::process
