// What the checker knows about device (global) memory during one launch: for
// each 4 KiB page the kernel touched, the cudaMalloc allocation it belongs to
// (looked up once per page with classify_address, then cached) and, for pages
// inside an allocation, one shadow Cell per 4-byte granule, created on first
// use. Everything is dropped when the launch ends; the shadow stops growing at
// a fixed budget (accesses beyond it are still checked for bounds).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "access.hpp"

namespace gpulab::emu::check {

struct DeviceAllocation {
  uintptr_t begin = 0;
  size_t size = 0;
  std::string origin;  // "file.cu:20"
  const char* api = "cudaMalloc";
};

class GlobalMemory {
 public:
  static constexpr unsigned kPageShift = 12;
  static constexpr size_t kGranulesPerPage = (size_t{1} << kPageShift) / 4;

  GlobalMemory();
  void reset();  // forget every page and shadow cell (launch begin / end)

  // The allocation whose mapping (guard zones included) holds `address`, or null.
  const DeviceAllocation* allocation(uintptr_t address) { return page(address).allocation; }
  // The shadow cell of the granule at `address` (inside an allocation), or null past the budget.
  Cell* cell(uintptr_t address);
  bool budget_exhausted() const { return exhausted_; }
  size_t budget_bytes() const { return budget_; }

 private:
  struct Page {
    const DeviceAllocation* allocation = nullptr;
    std::unique_ptr<Cell[]> shadow;
  };
  struct Slot {
    uintptr_t page = ~uintptr_t{0};
    Page* entry = nullptr;
  };
  Page& page(uintptr_t address) {
    const uintptr_t p = address >> kPageShift;
    Slot& s = cache_[p & (kCacheSlots - 1)];
    if (s.page != p) {
      s.entry = &lookup(p);
      s.page = p;
    }
    return *s.entry;
  }
  Page& lookup(uintptr_t page_number);

  static constexpr size_t kCacheSlots = 4096;
  std::unordered_map<uintptr_t, Page> pages_;
  std::vector<std::unique_ptr<DeviceAllocation>> allocations_;
  std::vector<Slot> cache_;
  size_t shadow_pages_ = 0;
  size_t budget_ = 0;
  bool exhausted_ = false;
};

}  // namespace gpulab::emu::check
