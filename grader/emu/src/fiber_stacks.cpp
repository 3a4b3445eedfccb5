// Fiber stack pool: one mmap per worker, guard page at the low end of each slot.
#include "fiber_stacks.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "platform/page_size.hpp"

namespace gpulab::emu {

FiberStacks::FiberStacks(unsigned count, size_t stack_bytes, bool guard_pages)
    : count_(count), guard_pages_(guard_pages) {
  const size_t page = platform::page_size();
  stack_bytes_ = (stack_bytes + page - 1) / page * page;
  slot_bytes_ = stack_bytes_ + page;
  void* p =
      mmap(nullptr, slot_bytes_ * count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    throw std::runtime_error("gpulab emulator: cannot reserve " + std::to_string(slot_bytes_ * count) +
                             " bytes for GPU thread stacks");
  }
  base_ = static_cast<char*>(p);
  if (guard_pages) {
    for (unsigned i = 0; i < count; ++i) mprotect(base_ + i * slot_bytes_, page, PROT_NONE);
  }
}

FiberStacks::~FiberStacks() {
  if (base_) munmap(base_, slot_bytes_ * count_);
}

void* FiberStacks::top(unsigned i) const { return base_ + (static_cast<size_t>(i) + 1) * slot_bytes_; }

bool FiberStacks::is_guard(const void* address) const {
  const auto a = reinterpret_cast<uintptr_t>(address);
  const auto b = reinterpret_cast<uintptr_t>(base_);
  if (!guard_pages_ || a < b || a >= b + slot_bytes_ * count_) return false;
  return (a - b) % slot_bytes_ < slot_bytes_ - stack_bytes_;
}

}  // namespace gpulab::emu
