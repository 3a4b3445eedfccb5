// Turns a segmentation fault inside a kernel into a diagnostic naming the
// kernel, block, thread and the allocation that was overrun, aborts the launch
// (sticky cudaErrorIllegalAddress, as on a GPU) and lets the program go on. A fault of host code
// in device memory is reported, then taken (the process ends, as on a GPU).
#pragma once
#include <csetjmp>

namespace gpulab::emu {
void install_fault_handler_for_this_thread();  // idempotent; also sets up an alternate signal stack
// The handler alone (device_memory.cpp, at each allocation: host code may fault before any launch).
void install_fault_handler();
// The worker's recovery point: the handler siglongjmps here after reporting.
sigjmp_buf* worker_recovery_point();
void set_recovery_armed(bool armed);
}  // namespace gpulab::emu
