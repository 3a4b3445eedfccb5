// Large buffers freed and allocated again, case after case (a grading reads each case's expected
// output, its bound and the submission's output, up to 64 MB each, into new buffers): kept by the
// allocator for the next one instead of returned to the system, so that each case does not pay
// for the system to hand out and zero the same memory again.
#pragma once

namespace gpulab::platform {

// Asks the C library's allocator to keep freed large buffers for reuse (glibc: mallopt's mmap and
// trim thresholds); nothing where the allocator has no such setting (macOS). The peak memory of a
// grading does not grow: what is kept is what the previous case used.
void keep_large_buffers_for_reuse();

}  // namespace gpulab::platform
