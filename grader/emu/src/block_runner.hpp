// Runs the blocks of a launch on one worker thread. A GPU thread of a block
// gets a fiber of its own (see fiber_switch.hpp) only once it has to wait:
// threads start as plain function calls, one after another, inside a
// "sweeper" fiber, and the first time one of them reaches a barrier or a warp
// collective and must wait, the sweeper's stack becomes that thread's stack
// and a fresh sweeper on a new stack goes on with the next thread. A kernel
// that never synchronises thus runs as one loop of calls on one stack, with
// no switch per thread; one that does costs what it did when every thread was
// a fiber from the start (one stack and one switch per waiting thread).
// Control passes straight from a waiting thread to the next runnable one
// (the sweeper stands for the threads not started yet). When no thread can
// run, the block is either finished, at a barrier every live thread has
// reached (released), at a grid barrier (parked, in a cooperative launch), or
// stuck: barrier divergence or a warp collective missing lanes, reported with
// the threads and source lines involved.
#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "fiber_stacks.hpp"
#include "fiber_switch.hpp"
#include "gpulab/emu/synchronization.hpp"
#include "gpulab/emu/thread_sweep.hpp"
#include "gpulab/emu/warp_functions.hpp"
#include "launch_state.hpp"

namespace gpulab::emu {

struct CheckerHooks;

// A named barrier call as written: bar.sync / bar.arrive id{, threads} (inline PTX) or
// __barrier_sync(id) / __barrier_sync_count(id, threads) (`intrinsic`).
struct NamedBarrierCall {
  unsigned id, threads;
  bool has_threads, wait, intrinsic;
  std::string spelled() const;  // for reports: "__barrier_sync_count(1, 100)", "bar.arrive 2, 64"
};

// One GPU thread's scheduling state: exactly one cache line, so that a switch
// touches one line of it (warp-collective data lives in WarpSlot, apart).
struct alignas(64) EmuThread {
  ThreadContext context;
  fiber::context fiber = nullptr;
  const char* wait_file = nullptr;
  int wait_line = 0;
  int predicate = 0;
  int barrier_result = 0;
  // Meaningful once started (rank < BlockRunner::next_unstarted_): a thread running as a plain
  // call gets its record when it first asks the runner for something (BlockRunner::settle).
  // runnable: running, or released from a wait.
  enum class State : unsigned char { runnable, at_barrier, at_warp, exited, parked } state = State::runnable;
  bool on_own_stack = false;  // it has waited once: the stack it runs on is its own until it exits
  BarrierKind barrier_kind = BarrierKind::plain;
};
static_assert(sizeof(EmuThread) == 64, "one cache line per GPU thread");
static_assert(offsetof(EmuThread, context) == 0, "the sweep's loop finds a thread's context at its record");
static_assert(sizeof(EmuThread::State) == 1 && sizeof(bool) == 1, "the sweep's loop writes these as bytes");

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
  // A runner for blocks of up to `max_threads` threads and `shared_bytes` of
  // shared memory; see FiberStacks for `guard_pages`.
  explicit BlockRunner(unsigned max_threads = 1024, size_t shared_bytes = 232448, bool guard_pages = true);
  ~BlockRunner();

  // Runs block `block_linear` of `launch` to completion; false if it was aborted.
  bool run_block(LaunchState& launch, unsigned long long block_linear);

  // The two halves of run_block, for cooperative launches whose blocks take
  // turns on one worker: start_block prepares the block, resume runs it until
  // it finishes, is aborted, or every thread waits at the same grid barrier
  // (then release_grid_barrier and resume again).
  enum class Status { finished, aborted, at_grid_barrier };
  void start_block(LaunchState& launch, unsigned long long block_linear);
  Status resume();
  void release_grid_barrier();
  const EmuThread& first_thread() const { return threads_[0]; }  // where a parked block waits

  // Called from GPU threads (fibers) of the running block.
  int barrier(BarrierKind kind, int predicate, const char* file, int line);
  unsigned long long warp_collective(WarpOp op, unsigned mask, unsigned long long value, int arg, int width,
                                     const char* file, int line);
  unsigned active_mask();
  void* allocate_static_shared(size_t bytes, size_t alignment, const char* file, int line, const void* key);
  // Group waits (block_waits.cpp): cuda::barrier, multi-warp tiles, coalesced_threads().
  void park(const void* object, const char* what, const char* file, int line);
  void wake_parked(const void* object);
  // Named barriers (named_barriers.cpp): bar.sync / bar.arrive id{, threads}, __barrier_sync_count.
  // `threads` 0: every warp of the block; `wait` false: bar.arrive (waits for its warp only).
  void named_barrier(const NamedBarrierCall& call, const char* file, int line);
  void group_synchronised(const char* file, int line);
  unsigned coalesce(const char* file, int line);
  void append_printf(const char* text, size_t length);
  [[noreturn]] void abort_block();  // after a diagnostic: stop this block, return to run_block
  std::string take_printf() { return std::move(printf_buffer_); }
  void reset_after_fault();  // a fault handler jumped out of this block's fiber

  // What is running now, for the watchdog, the fault handler and the checking runtime.
  const LaunchState* launch() const { return launch_; }
  // The running GPU thread's indices; null between blocks. Read from another OS thread (the
  // watchdog) it is a best guess, good for a report.
  const ThreadContext* running_context() const {
    if (in_regions_) return region_report_context();
    if (active_sweep_) return &sweep_context_;
    return current_ ? &current_->context : nullptr;
  }
  std::string running_thread_label() const;  // "(x,y,z)" of running_context(), or ""
  // The record of the thread that last called the runner (a barrier, a warp collective).
  const EmuThread* current() const { return current_; }
  // Changes whenever the block makes progress: a thread starts or ends, a barrier releases, a
  // block starts. Read by the watchdog from its own thread.
  unsigned long long progress_mark() const {
    return progress_.load(std::memory_order_relaxed) * 2048 + __atomic_load_n(&sweep_context_.linear, __ATOMIC_RELAXED);
  }
  const BlockContext& block() const { return block_; }
  unsigned long long block_linear() const { return block_linear_; }
  unsigned long long barrier_epoch() const { return barrier_epoch_; }  // barriers passed by this block
  unsigned thread_count() const { return thread_count_; }
  bool owns_stack_address(const void* address) const { return stacks_.is_guard(address); }
  std::string block_label() const;
  std::string thread_label(const EmuThread& t) const;

  bool checked() const { return hooks_ != nullptr; }  // the checking runtime follows this block

  static void sweeper_entry(fiber::transfer transfer);

  // The region form (region_runner.cpp, gpulab/emu/thread_regions.hpp): the block's first thread,
  // started by the block's first sweep, may run the whole block as regions between barriers
  // unless the checking build follows the block, the launch is cooperative, or GPULAB_EMU_REGIONS=0.
  bool may_run_regions() const {
    return region_gate_ && active_sweep_ && sweep_context_.linear == 0 && next_unstarted_ == 0;
  }
  void begin_regions();
  void end_regions();     // every thread of the block has run: the sweep ends
  void region_barrier();  // the threads passed a barrier
  ThreadContext* region_context() { return &sweep_context_; }
  // A warp collective of the region form misused by the thread of rank `rank`: reported as the
  // fibers report it (warp_lanes.cpp), and the block ends (region_warps.cpp).
  [[noreturn]] void region_warp_problem(unsigned rank, WarpOp op, const char* file, int line, const std::string& what);

 private:
  [[noreturn]] void sweep();  // runs the unstarted threads in order as plain calls
  // Gives the thread running as a plain call (if any) its record, and counts the plain calls the
  // sweep finished before it as exited: every entry from device code calls it first.
  void settle() {
    if (in_regions_) regions_misused();
    if (active_sweep_ && sweep_context_.linear >= next_unstarted_) settle_plain_call();
  }
  [[noreturn]] void regions_misused();
  const ThreadContext* region_report_context() const;
  void settle_plain_call();
  void account_plain_exits(unsigned from, unsigned to, bool write_records);
  __attribute__((always_inline)) EmuThread* next_runnable_after(unsigned position);
  EmuThread* resolve_stall();  // all live threads wait: release a barrier, or report and return nullptr
  __attribute__((always_inline)) void wait_and_switch(EmuThread* self);
  __attribute__((always_inline)) void switch_to(EmuThread* next, fiber::context* save);
  [[noreturn]] void switch_away_for_good(unsigned position, unsigned stack);  // after a thread or the sweep ends
  void park_at_grid_barrier(EmuThread* self);  // every thread waits at the grid barrier: back to the launch
  unsigned acquire_stack();
  void release_stack(unsigned slot) { free_stacks_.push_back(static_cast<unsigned short>(slot)); }
  fiber::context make_sweeper();
  void enter_block();  // sets what says this block is running on this worker
  void bump_progress() { progress_.store(progress_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
  unsigned existing_lanes(unsigned warp) const;
  bool try_complete_warp(EmuThread* self, unsigned effective_mask);
  void report_stall();
  void leave_block();  // clears what says a block is running on this worker
  void report_warp_problem(const EmuThread& t, const std::string& what);
  void suspend(EmuThread* self);   // wait_and_switch, callable from block_waits.cpp
  EmuThread* release_coalesced();  // at a stall: the lanes waiting in coalesced_threads() form their groups
  bool try_coalesce_warp(unsigned warp);
  // Named barriers: counts warp `warp`'s arrival once all its live lanes are there, and completes
  // the phase once enough warps have arrived; at a stall, the same after threads have exited.
  void count_named_warp(unsigned id, unsigned warp);
  EmuThread* release_named_after_exits();
  unsigned live_lanes(unsigned warp) const;  // lanes not exited (unstarted ones count as live)

  WarpSlot& warp_of(const EmuThread& t) { return warp_slots_[t.context.linear]; }

  unsigned max_threads_;
  FiberStacks stacks_;  // max_threads_ + 1 slots: one per waiting thread, plus the sweeper's
  std::vector<unsigned short> free_stacks_;
  unsigned fresh_stacks_ = 0;    // slots [fresh_stacks_, end) not used yet in this block
  unsigned next_unstarted_ = 0;  // threads [next_unstarted_, thread_count_) have not started
  // The sweep running now (its loop is on the running stack), and the context that the thread it
  // runs as a plain call reads (gpulab_emu_thread points to it while the sweep runs; settle gives
  // the thread a record too, once it asks the runner for something: then its rank is below
  // next_unstarted_). Threads [unaccounted_, sweep_context_.linear) of that sweep have ended
  // uncounted.
  ThreadSweep* active_sweep_ = nullptr;
  ThreadContext sweep_context_{};
  unsigned unaccounted_ = 0;
  unsigned sweeper_stack_ = 0;  // the stack of the sweeper made last
  bool grid_parked_ = false;
  bool region_gate_ = false;   // this block may run as regions (decided when it starts)
  bool in_regions_ = false;    // it does: the sweep's context follows the regions' loops
  bool regions_done_ = false;  // and all its threads have run
  mutable ThreadContext region_report_context_{};
  struct StaticShared {
    const void* key;
    void* p;
  };
  std::vector<StaticShared> static_shared_;            // this block's __shared__ variables, by declaration
  std::vector<unsigned char> saved_namespace_shared_;  // while parked: namespace-scope __shared__ contents
  const CheckerHooks* hooks_ = nullptr;
  std::vector<EmuThread> threads_;
  std::vector<WarpSlot> warp_slots_;
  std::vector<unsigned> warp_arrived_;  // per warp: the lanes in state at_warp (waiting at a collective)
  // What a parked thread waits for (indexed by rank; apart from EmuThread, which is one cache line).
  struct ParkedOn {
    const void* object = nullptr;
    const char* what = nullptr;
  };
  std::vector<ParkedOn> parked_on_;
  unsigned coalescing_ = 0;  // threads waiting in coalesced_threads(): a stall looks for them only then
  // A named barrier's phase in progress: the threads it counts (0: every live warp), the threads
  // counted so far (32 per warp whose live lanes have all arrived), the lanes of each warp that
  // have arrived but are not counted yet, and where it began, for a report.
  struct NamedBarrier {
    bool counting = false;
    unsigned threads = 0;
    unsigned arrived = 0;
    unsigned long long phase = 0;  // phases completed in this block
    std::array<unsigned, 32> lanes{};
    std::array<unsigned long long, 32> warp_phase{};  // the phase each warp was last counted in
    unsigned arrive_waiters = 0;                      // lanes in bar.arrive waiting for their warp
    std::string label;  // "bar.sync 1, 256 (first reached on line 120)": what its waiters wait at
  };
  std::array<NamedBarrier, 16> named_{};
  bool named_touched_ = false;  // a named barrier was used in this block: reset them at the next
  std::unique_ptr<unsigned char[]> shared_arena_;
  size_t shared_capacity_ = 0;
  size_t static_shared_used_ = 0;
  BlockContext block_{};
  LaunchState* launch_ = nullptr;      // while the block runs
  LaunchState* own_launch_ = nullptr;  // from start_block to its end, parked or not
  EmuThread* current_ = nullptr;
  fiber::context main_fiber_ = nullptr;
  unsigned thread_count_ = 0;
  unsigned live_ = 0;
  unsigned runnable_ = 0;
  bool aborted_ = false;
  unsigned long long block_linear_ = 0;
  unsigned long long barrier_epoch_ = 0;
  std::string printf_buffer_;
  std::atomic<unsigned long long> progress_{0};  // read by the watchdog
};

// The runner of the calling worker thread (created on first use).
BlockRunner& this_worker_runner();
BlockRunner* running_block_runner();  // non-null while this OS thread runs a block

}  // namespace gpulab::emu
