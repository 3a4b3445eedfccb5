// Runs the blocks of a launch on one worker thread. Each GPU thread of a block
// is a fiber (see fiber_switch.hpp) on a pooled stack; a fiber runs until
// it reaches a barrier or a warp collective, then control passes straight to
// the next runnable fiber of the block. When no fiber can run, the block is
// either finished, at a barrier every live thread has reached (released), or
// stuck: barrier divergence or a warp collective missing lanes, reported with
// the threads and source lines involved.
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fiber_stacks.hpp"
#include "fiber_switch.hpp"
#include "gpulab/emu/synchronization.hpp"
#include "gpulab/emu/warp_functions.hpp"
#include "launch_state.hpp"

namespace gpulab::emu {

// One GPU thread's scheduling state: exactly one cache line, so that a switch
// touches one line of it (warp-collective data lives in WarpSlot, apart).
struct alignas(64) EmuThread {
  ThreadContext context;
  fiber::context fiber = nullptr;
  const char* wait_file = nullptr;
  int wait_line = 0;
  int predicate = 0;
  int barrier_result = 0;
  enum class State : unsigned char { runnable, at_barrier, at_warp, exited, parked } state = State::runnable;
  BarrierKind barrier_kind = BarrierKind::plain;
};

// What a thread deposits at a warp collective and gets back.
struct WarpSlot {
  WarpOp op = WarpOp::sync;
  unsigned mask = 0;
  unsigned long long value = 0;
  int arg = 0;
  int width = 32;
  unsigned long long warp_result = 0;
};

class BlockRunner {
 public:
  BlockRunner();
  ~BlockRunner();

  // Runs block `block_linear` of `launch` to completion; false if it was aborted.
  bool run_block(LaunchState& launch, unsigned long long block_linear);

  // Called from GPU threads (fibers) of the running block.
  int barrier(BarrierKind kind, int predicate, const char* file, int line);
  unsigned long long warp_collective(WarpOp op, unsigned mask, unsigned long long value, int arg, int width,
                                     const char* file, int line);
  unsigned active_mask() const;
  void* allocate_static_shared(size_t bytes, size_t alignment, const char* file, int line);
  // Group waits (block_waits.cpp): cuda::barrier, multi-warp tiles, coalesced_threads().
  void park(const void* object, const char* what, const char* file, int line);
  void wake_parked(const void* object);
  void group_synchronised(const char* file, int line);
  unsigned coalesce(const char* file, int line);
  void append_printf(const char* text, size_t length);
  [[noreturn]] void abort_block();  // after a diagnostic: stop this block, return to run_block
  std::string take_printf() { return std::move(printf_buffer_); }
  void reset_after_fault();  // a fault handler jumped out of this block's fiber

  // What is running now, for the watchdog and the fault handler.
  const LaunchState* launch() const { return launch_; }
  const EmuThread* current() const { return current_; }
  const BlockContext& block() const { return block_; }
  unsigned long long block_linear() const { return block_linear_; }
  unsigned long long barrier_epoch() const { return barrier_epoch_; }  // barriers passed by this block
  unsigned thread_count() const { return thread_count_; }
  bool owns_stack_address(const void* address) const { return stacks_.is_guard(address); }
  std::string block_label() const;
  std::string thread_label(const EmuThread& t) const;

  static void thread_entry(fiber::transfer transfer);

 private:
  __attribute__((always_inline)) EmuThread* next_runnable_after(EmuThread* self);
  EmuThread* resolve_stall();  // all live threads wait: release a barrier, or report and return nullptr
  __attribute__((always_inline)) void wait_and_switch(EmuThread* self);
  __attribute__((always_inline)) void switch_to(EmuThread* next, fiber::context* save);
  [[noreturn]] void finish_thread(EmuThread* self);
  unsigned existing_lanes(unsigned warp) const;
  bool try_complete_warp(EmuThread* self, unsigned effective_mask);
  void report_stall();
  void leave_block();  // clears what says a block is running on this worker
  void report_warp_problem(const EmuThread& t, const std::string& what);
  void suspend(EmuThread* self);  // wait_and_switch, callable from block_waits.cpp
  EmuThread* release_coalesced();  // at a stall: the lanes waiting in coalesced_threads() form their groups
  bool try_coalesce_warp(unsigned warp);

  WarpSlot& warp_of(const EmuThread& t) { return warp_slots_[t.context.linear]; }

  FiberStacks stacks_;
  std::vector<EmuThread> threads_;
  std::vector<WarpSlot> warp_slots_;
  // What a parked thread waits for (indexed by rank; apart from EmuThread, which is one cache line).
  struct ParkedOn {
    const void* object = nullptr;
    const char* what = nullptr;
  };
  std::vector<ParkedOn> parked_on_;
  unsigned coalescing_ = 0;  // threads waiting in coalesced_threads(): a stall looks for them only then
  std::unique_ptr<unsigned char[]> shared_arena_;
  size_t shared_capacity_ = 0;
  size_t static_shared_used_ = 0;
  BlockContext block_{};
  LaunchState* launch_ = nullptr;
  EmuThread* current_ = nullptr;
  fiber::context main_fiber_ = nullptr;
  unsigned thread_count_ = 0;
  unsigned live_ = 0;
  unsigned runnable_ = 0;
  bool aborted_ = false;
  unsigned long long generation_ = 0;
  unsigned long long block_linear_ = 0;
  unsigned long long barrier_epoch_ = 0;
  std::string printf_buffer_;
  std::atomic<unsigned long long> progress_{0};  // read by the watchdog
};

// The runner of the calling worker thread (created on first use).
BlockRunner& this_worker_runner();
BlockRunner* running_block_runner();  // non-null while this OS thread runs a block

}  // namespace gpulab::emu
