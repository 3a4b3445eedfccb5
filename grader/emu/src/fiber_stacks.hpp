// A pool of fixed-size fiber stacks for one worker thread, each with a
// PROT_NONE guard page (of the system's page size: 16 KiB on Apple Silicon) below it so that a stack overflow faults at once.
// Without guard pages (for the many blocks of a large cooperative launch:
// each guard page is a mapping of its own, and Linux allows a process about
// 65,000) an overflow runs into the next stack instead.
#pragma once
#include <cstddef>

namespace gpulab::emu {

class FiberStacks {
 public:
  FiberStacks(unsigned count, size_t stack_bytes, bool guard_pages = true);
  ~FiberStacks();
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;

  void* top(unsigned i) const;  // highest address of stack i (stacks grow down)
  size_t stack_bytes() const { return stack_bytes_; }
  bool is_guard(const void* address) const;

 private:
  char* base_ = nullptr;
  size_t slot_bytes_ = 0;
  size_t stack_bytes_ = 0;
  unsigned count_ = 0;
  bool guard_pages_ = true;
};

}  // namespace gpulab::emu
