// For the grader's harness only: the device memory and page-locked host memory that exist now, so
// that the harness can free what a submission's call allocated and left before it runs the next
// case in the same process (grader/harness/leftover_allocations.hpp). A submission has no business
// calling this: the audit of its object refuses references to the emulator's harness_* functions.
#pragma once
#include <vector>

namespace gpulab::emu {

struct HarnessAllocation {
  void* address;
  bool page_locked;  // else device memory (cudaMalloc and its forms, managed memory)
};
std::vector<HarnessAllocation> harness_live_allocations();

}  // namespace gpulab::emu
