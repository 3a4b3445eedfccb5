// Memory the submission's function allocated during a case and never freed:
// freed after the case, so that the next case run in the same process starts
// with the memory a fresh process would have (a forgotten cudaFree of a
// scratch buffer must not run a later, larger case out of memory). Memory a
// call allocates and keeps a pointer to in a static is the submission's state
// (submission_state.hpp): the next case then runs in a fresh process anyway.
#pragma once

namespace gpulab::harness {

// Before a case's calls: what exists now is not the case's.
void watch_allocations();
// After the case: frees what its calls allocated and left.
void free_leftover_allocations();

// On a GPU the allocation wrappers report what the submission's calls allocate and free
// (leftover_allocations_cuda.cpp, transfer_hooks_cuda.cpp).
enum class AllocationKind { device, page_locked, registered };
void note_submission_allocation(void* p, AllocationKind kind);
void note_submission_free(void* p);

}  // namespace gpulab::harness
