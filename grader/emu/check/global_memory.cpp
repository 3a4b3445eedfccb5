// Pages of device memory and their shadow cells (see global_memory.hpp).
#include "global_memory.hpp"

#include <algorithm>
#include <cstdlib>

#include "device_memory.hpp"

namespace gpulab::emu::check {
namespace {
size_t shadow_budget_bytes() {
  // GPULAB_RACE_CHECK_SHADOW_MB overrides the default of 2 GiB of shadow state per launch.
  if (const char* mb = std::getenv("GPULAB_RACE_CHECK_SHADOW_MB"); mb && *mb) {
    return static_cast<size_t>(std::strtoull(mb, nullptr, 10)) << 20;
  }
  return size_t{2} << 30;
}
}  // namespace

GlobalMemory::GlobalMemory() : cache_(kCacheSlots), budget_(shadow_budget_bytes()) {}

void GlobalMemory::reset() {
  pages_.clear();
  allocations_.clear();
  std::fill(cache_.begin(), cache_.end(), Slot{});
  shadow_pages_ = 0;
  exhausted_ = false;
}

GlobalMemory::Page& GlobalMemory::lookup(uintptr_t page_number) {
  auto [it, fresh] = pages_.try_emplace(page_number);
  if (!fresh) return it->second;
  // Mappings are whole pages, so the page's first byte says which allocation the page belongs to.
  const AddressInfo info = classify_address(reinterpret_cast<const void*>(page_number << kPageShift));
  if (info.kind == AddressInfo::Kind::unknown) return it->second;
  for (const auto& a : allocations_) {
    if (a->begin == info.allocation.begin) {
      it->second.allocation = a.get();
      return it->second;
    }
  }
  allocations_.push_back(std::make_unique<DeviceAllocation>(
      DeviceAllocation{info.allocation.begin, info.allocation.size, info.allocation.origin, info.allocation.api}));
  it->second.allocation = allocations_.back().get();
  return it->second;
}

Cell* GlobalMemory::cell(uintptr_t address) {
  Page& p = page(address);
  if (!p.shadow) {
    if ((shadow_pages_ + 1) * kGranulesPerPage * sizeof(Cell) > budget_) {
      exhausted_ = true;
      return nullptr;
    }
    p.shadow.reset(new Cell[kGranulesPerPage]());
    ++shadow_pages_;
  }
  return &p.shadow[(address >> 2) & (kGranulesPerPage - 1)];
}

}  // namespace gpulab::emu::check
