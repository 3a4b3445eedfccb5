// leftover_allocations.hpp on the emulator: what exists before a case's calls (the harness's
// buffers, what the program allocated before main) is kept; what exists after the case and did
// not before is the case's, and is freed.
#include <cuda_runtime.h>

#include <set>

#include "gpulab/emu/harness_allocations.hpp"
#include "harness/leftover_allocations.hpp"

namespace gpulab::harness {
namespace {
std::set<void*>& before() {
  static auto* s = new std::set<void*>();
  return *s;
}
}  // namespace

void watch_allocations() {
  before().clear();
  for (const gpulab::emu::HarnessAllocation& a : gpulab::emu::harness_live_allocations()) before().insert(a.address);
}

void free_leftover_allocations() {
  const auto now = gpulab::emu::harness_live_allocations();
  bool any = false;
  for (const gpulab::emu::HarnessAllocation& a : now) {
    if (before().count(a.address)) continue;
    if (!any) cudaDeviceSynchronize();
    any = true;
    if (a.page_locked) cudaFreeHost(a.address);
    else cudaFree(a.address);
  }
  if (any) cudaGetLastError();
}

// The emulator's runtime knows every allocation itself: nothing is reported to the harness.
void note_submission_allocation(void*, AllocationKind) {}
void note_submission_free(void*) {}
}  // namespace gpulab::harness
