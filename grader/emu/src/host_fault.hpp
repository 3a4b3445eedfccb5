// Host code that touched device memory (device_access.hpp): on a GPU a segmentation fault. The
// fault handler calls this from the faulting host thread; it reports the access through the
// diagnostics (printed, and written for the grader) with where it happened and what to do, and
// returns false when the fault is not such an access (then it is an ordinary crash).
#pragma once
#include <signal.h>

namespace gpulab::emu {

bool report_host_device_access(const siginfo_t* info, const void* raw_context);

}  // namespace gpulab::emu
