// Implementation of gpulab/emu/harness_allocations.hpp, from the device allocations' registry and
// the page-locked ranges.
#include "gpulab/emu/harness_allocations.hpp"

#include "device_memory.hpp"
#include "page_locked.hpp"

namespace gpulab::emu {

std::vector<HarnessAllocation> harness_live_allocations() {
  std::vector<HarnessAllocation> out;
  for (const Allocation& a : live_allocations()) out.push_back({reinterpret_cast<void*>(a.begin), false});
  for (uintptr_t begin : allocated_page_locked()) out.push_back({reinterpret_cast<void*>(begin), true});
  return out;
}

}  // namespace gpulab::emu
