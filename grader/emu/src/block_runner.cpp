// Runs one block on one worker: its threads as plain calls of the sweep until one must wait, then as
// fibers switching at barriers and warp collectives (grader/emu/src/README.md). The rest of the
// runner: block_stalls.cpp (a block whose threads all wait), warp_lanes.cpp (completing a warp
// collective), block_shared_memory.cpp (__shared__ variables), region_runner.cpp (a block run as
// regions between barriers).
#include "block_runner.hpp"

#include <algorithm>
#include <cstring>

#include "checker_hooks.hpp"
#include "diagnostics.hpp"
#include "launch_dims.hpp"
#include "namespace_shared.hpp"
#include "thread_ranks.hpp"
#include "wait_names.hpp"
#include "warp_rules.hpp"
#include "watchdog.hpp"

__thread gpulab::emu::ThreadContext* gpulab_emu_thread = nullptr;
__thread gpulab::emu::BlockContext* gpulab_emu_block = nullptr;
__thread const gpulab::emu::LaunchContext* gpulab_emu_launch = nullptr;

namespace gpulab::emu {
bool regions_enabled();  // region_runner.cpp
namespace {
constexpr size_t kStackBytes = 64 * 1024;

__thread BlockRunner* tl_runner = nullptr;
__thread BlockRunner* tl_running = nullptr;
__thread unsigned long long tl_generation = 0;  // of the last block started on this worker

}  // namespace

std::string LaunchState::where() const {
  return "kernel '" + std::string(request.kernel_name) + "' launched at " + request.file + ":" +
         std::to_string(request.line);
}

BlockRunner& this_worker_runner() {
  if (!tl_runner) tl_runner = new BlockRunner();  // lives as long as its worker thread
  return *tl_runner;
}
BlockRunner* running_block_runner() { return tl_running; }

// The hot entry points of the device built-ins, here so that the scheduler inlines into them.
int block_barrier(BarrierKind kind, int predicate, const char* file, int line) {
  return tl_running->barrier(kind, predicate, file, line);
}
unsigned long long warp_collective(WarpOp op, unsigned mask, unsigned long long value, int arg, int width,
                                   const char* file, int line) {
  return tl_running->warp_collective(op, mask, value, arg, width, file, line);
}

BlockRunner::BlockRunner(unsigned max_threads, size_t shared_bytes, bool guard_pages)
    : max_threads_(max_threads),
      stacks_(max_threads + 1, kStackBytes, guard_pages),
      threads_(max_threads),
      warp_slots_(max_threads),
      warp_arrived_((max_threads + 31) / 32),
      parked_on_(max_threads),
      shared_arena_(new unsigned char[shared_bytes]),
      shared_capacity_(shared_bytes) {
  free_stacks_.reserve(max_threads + 1);
  watch_runner(this);
}

BlockRunner::~BlockRunner() { unwatch_runner(this); }

std::string BlockRunner::block_label() const {
  return format_index(block_.block_idx.x, block_.block_idx.y, block_.block_idx.z);
}
std::string BlockRunner::thread_label(const EmuThread& t) const {
  return format_index(t.context.thread_idx.x, t.context.thread_idx.y, t.context.thread_idx.z);
}
std::string BlockRunner::running_thread_label() const {
  const ThreadContext* c = running_context();
  return c ? format_index(c->thread_idx.x, c->thread_idx.y, c->thread_idx.z) : "";
}

bool BlockRunner::run_block(LaunchState& launch, unsigned long long block_linear) {
  start_block(launch, block_linear);
  return resume() == Status::finished;
}

void BlockRunner::start_block(LaunchState& launch, unsigned long long block_linear) {
  own_launch_ = launch_ = &launch;
  hooks_ = launch.context.cooperative ? nullptr : checker_hooks;  // see launch_engine.cpp: cooperative launches
  const dim3 g = launch.request.grid;
  block_.block_idx = uint3{static_cast<unsigned>(block_linear % g.x), static_cast<unsigned>((block_linear / g.x) % g.y),
                           static_cast<unsigned>(block_linear / (static_cast<unsigned long long>(g.x) * g.y))};
  block_.generation = ++tl_generation;  // unique on this worker, which may hold several runners
  block_linear_ = block_linear;
  barrier_epoch_ = 0;
  bump_progress();
  static_shared_used_ = launch.request.dynamic_shared_bytes;
  static_shared_.clear();
  block_.dynamic_shared = shared_arena_.get();
  block_.shared_bytes = shared_capacity_;
  std::memset(shared_arena_.get(), kSharedPoison, launch.request.dynamic_shared_bytes);
  printf_buffer_.clear();

  thread_count_ = launch.threads_per_block;
  // No thread has a record yet: the sweep starts them, and settle() writes a record when needed.
  live_ = runnable_ = thread_count_;
  next_unstarted_ = 0;
  unaccounted_ = 0;
  active_sweep_ = nullptr;
  sweep_context_ = ThreadContext{};  // thread 0's indices
  free_stacks_.clear();
  fresh_stacks_ = 0;
  coalescing_ = 0;
  if (named_touched_) {
    for (NamedBarrier& b : named_) b = NamedBarrier{};
    named_touched_ = false;
  }
  std::fill(warp_arrived_.begin(), warp_arrived_.end(), 0u);
  aborted_ = false;
  grid_parked_ = false;
  region_gate_ = regions_enabled() && !hooks_ && !launch.context.cooperative;
  in_regions_ = regions_done_ = false;

  enter_block();
  current_ = &threads_[0];
  gpulab_emu_thread = &threads_[0].context;
  if (hooks_) hooks_->block_begin(*this, shared_arena_.get(), launch.request.dynamic_shared_bytes);
  for (const NamespaceShared& v : namespace_shared()) {
    void* p = v.address();
    std::memset(p, kSharedPoison, v.bytes);
    static_shared_used_ += (v.bytes + 15) / 16 * 16;  // counts towards the block's shared memory limit
    if (hooks_) hooks_->shared_allocated(*this, p, v.bytes, v.file, v.line);
  }
  threads_[0].fiber = make_sweeper();
}

void BlockRunner::enter_block() {
  launch_ = own_launch_;
  gpulab_emu_block = &block_;
  gpulab_emu_launch = &launch_->context;
  set_launch_dims(launch_->context.grid_dim, launch_->context.block_dim);
  tl_running = this;
}

BlockRunner::Status BlockRunner::resume() {
  if (grid_parked_) {
    // Back from a grid barrier: this block's namespace-scope __shared__ variables come back.
    size_t offset = 0;
    for (const NamespaceShared& v : namespace_shared()) {
      std::memcpy(v.address(), saved_namespace_shared_.data() + offset, v.bytes);
      offset += v.bytes;
    }
    grid_parked_ = false;
  }
  enter_block();
  current_ = &threads_[0];
  gpulab_emu_thread = &threads_[0].context;
  const fiber::transfer t = fiber::jump(threads_[0].fiber, &main_fiber_);
  if (t.data) *static_cast<fiber::context*>(t.data) = t.from;
  // Back here once every thread has exited, the block was aborted, or it waits at a grid barrier.
  if (grid_parked_) {
    saved_namespace_shared_.clear();
    for (const NamespaceShared& v : namespace_shared()) {
      const auto* p = static_cast<const unsigned char*>(v.address());
      saved_namespace_shared_.insert(saved_namespace_shared_.end(), p, p + v.bytes);
    }
    leave_block();  // a parked block is not running: the watchdog leaves it alone
    return Status::at_grid_barrier;
  }
  if (hooks_) hooks_->block_end(*this);
  leave_block();
  return aborted_ ? Status::aborted : Status::finished;
}

void BlockRunner::leave_block() {
  in_regions_ = false;
  active_sweep_ = nullptr;
  gpulab_emu_thread = nullptr;
  gpulab_emu_block = nullptr;
  gpulab_emu_launch = nullptr;
  tl_running = nullptr;
  current_ = nullptr;
  launch_ = nullptr;  // a parked block too: the watchdog skips runners with no launch
}

unsigned BlockRunner::acquire_stack() {
  if (!free_stacks_.empty()) {
    const unsigned slot = free_stacks_.back();
    free_stacks_.pop_back();
    return slot;
  }
  return fresh_stacks_++;  // at most one per thread plus the sweeper's: never more than the slots
}

fiber::context BlockRunner::make_sweeper() {
  const unsigned slot = acquire_stack();
  sweeper_stack_ = slot;
  // Stagger the stack tops so that the fibers' hot frames do not all fall in the same cache sets.
  const size_t colour = (slot % 64) * 64;
  return fiber::make(static_cast<char*>(stacks_.top(slot)) - colour, stacks_.stack_bytes() - colour,
                     &BlockRunner::sweeper_entry);
}

void BlockRunner::sweeper_entry(fiber::transfer transfer) {
  if (transfer.data) *static_cast<fiber::context*>(transfer.data) = transfer.from;
  tl_running->sweep();
}

// The fast path. Each unstarted thread is called in turn, on this stack, with
// no switch: a thread that never waits runs start to finish as one call. The
// loop itself is the kernel's (sweep_threads in thread_sweep.hpp, compiled
// with the kernel, which is inlined into it where it is short); it keeps no
// record per thread: the
// running thread reads its indices from sweep_context_, and the threads it
// finished are counted later, all at once (settle, or below). A thread that
// waits (in wait_and_switch) takes this stack with it, marked on_own_stack,
// and sets the loop's `waited`; when it is later resumed and its kernel
// returns, it returns here, into this frame, and ends as a fiber (below); the
// sweep itself has meanwhile gone on in a new sweeper on another stack.
// Nothing is ever run twice: a thread is started once, by whichever sweeper
// reaches it.
void BlockRunner::sweep() {
  const unsigned my_stack = sweeper_stack_;
  const KernelBody& body = launch_->body;  // not a copy: that would count a reference, an atomic shared by the workers
  const dim3 b = launch_->request.block;
  ThreadSweep s{&sweep_context_, next_unstarted_, thread_count_, b.x, b.y};
  // The first thread's indices, before the loop runs it (also what a report names if the kernel's
  // stack frame, inlined into the loop, overflows on entry). Mostly the sweep before this one
  // stopped at the thread just before (it waited): one step on from its indices, no division.
  const unsigned first = next_unstarted_;
  if (sweep_context_.linear + 1 == first) {
    step_context(sweep_context_, b);
  } else if (sweep_context_.linear != first) {
    sweep_context_ = context_of_rank(first, b);
  }
  active_sweep_ = &s;
  unaccounted_ = next_unstarted_;
  const unsigned i = body.sweep(body.closure, s);
  if (regions_done_) {
    // The first thread ran the whole block as regions (region_runner.cpp): every thread has ended.
    active_sweep_ = nullptr;
    in_regions_ = false;
    account_plain_exits(0, thread_count_, false);
    next_unstarted_ = thread_count_;
    switch_away_for_good(thread_count_ - 1, my_stack);
  }
  if (s.waited) {
    // Thread i waited on the way: this stack is its own, and the sweep went on elsewhere.
    EmuThread* t = &threads_[i];
    t->state = EmuThread::State::exited;
    --live_;
    --runnable_;
    bump_progress();
    switch_away_for_good(i, my_stack);
  }
  // Every thread has started and this stack holds none of them. The records of the threads that
  // ended as plain calls are written only if another thread still waits and may read them.
  active_sweep_ = nullptr;
  const unsigned ended = thread_count_ - unaccounted_;
  account_plain_exits(unaccounted_, thread_count_, live_ > ended);
  next_unstarted_ = thread_count_;
  switch_away_for_good(thread_count_ - 1, my_stack);
}

// Threads [from, to) ended as plain calls: they count as exited (and get records saying so).
void BlockRunner::account_plain_exits(unsigned from, unsigned to, bool write_records) {
  if (from >= to) return;
  if (write_records) {
    const dim3 b = launch_->request.block;
    for (unsigned i = from; i < to; ++i) {
      EmuThread& t = threads_[i];
      t.context = context_of_rank(i, b);
      t.state = EmuThread::State::exited;
      t.on_own_stack = false;
    }
  }
  live_ -= to - from;
  runnable_ -= to - from;
  progress_.store(progress_.load(std::memory_order_relaxed) + (to - from), std::memory_order_relaxed);
}

void BlockRunner::settle_plain_call() {
  const unsigned i = sweep_context_.linear;
  account_plain_exits(unaccounted_, i, true);
  EmuThread& t = threads_[i];
  t.context = sweep_context_;
  t.state = EmuThread::State::runnable;
  t.on_own_stack = false;
  next_unstarted_ = i + 1;
  unaccounted_ = i;  // if it returns to the loop, the next settle counts it as ended
  current_ = &t;     // it still reads sweep_context_, which holds the same indices until it ends
}

inline void BlockRunner::switch_to(EmuThread* next, fiber::context* save) {
  current_ = next;
  gpulab_emu_thread = &next->context;
  const unsigned index = static_cast<unsigned>(next - threads_.data());
  if (index >= next_unstarted_) {
    next->fiber = make_sweeper();  // the next thread to start: a sweeper on a fresh stack starts it
  } else if (index + 2 < next_unstarted_) {
    // Threads mostly run in rank order: warm the caches for the one after `next`,
    // whose saved registers and kernel frame sit just above its saved stack pointer.
    const EmuThread& soon = threads_[next->context.linear + 2];
    const char* sp = static_cast<const char*>(soon.fiber);
    for (int line = 0; line < 5; ++line) __builtin_prefetch(sp + 64 * line);
    __builtin_prefetch(&threads_[next->context.linear + 3]);
  }
  fiber::transfer t = fiber::jump(next->fiber, save);
  if (t.data) *static_cast<fiber::context*>(t.data) = t.from;
}

inline EmuThread* BlockRunner::next_runnable_after(unsigned position) {
  if (runnable_ == 0) return nullptr;
  for (unsigned k = 1; k <= thread_count_; ++k) {
    unsigned i = position + k;
    if (i >= thread_count_) i -= thread_count_;
    if (i >= next_unstarted_ || threads_[i].state == EmuThread::State::runnable) return &threads_[i];
  }
  return nullptr;
}

inline void BlockRunner::wait_and_switch(EmuThread* self) {
  if (!self->on_own_stack) {
    // Its first wait: it runs as a plain call of the active sweep. From now on it needs its stack;
    // the sweep goes on elsewhere, in a new sweeper, from the next thread.
    self->on_own_stack = true;
    active_sweep_->waited = true;
    active_sweep_ = nullptr;
    unaccounted_ = self->context.linear + 1;
  }
  --runnable_;
  EmuThread* next = next_runnable_after(self->context.linear);
  if (!next) next = resolve_stall();
  if (!next) {
    if (grid_parked_) return park_at_grid_barrier(self);
    aborted_ = true;
    fiber::jump(main_fiber_, nullptr);  // never resumed
  }
  if (next != self) switch_to(next, &self->fiber);
}

void BlockRunner::suspend(EmuThread* self) { wait_and_switch(self); }

void BlockRunner::park_at_grid_barrier(EmuThread* self) {
  const fiber::transfer t = fiber::jump(main_fiber_, &self->fiber);
  if (t.data) *static_cast<fiber::context*>(t.data) = t.from;
  // Resumed by release_grid_barrier and resume(): the launch passed the grid barrier.
}

void BlockRunner::release_grid_barrier() {
  for (unsigned i = 0; i < thread_count_; ++i) threads_[i].state = EmuThread::State::runnable;
  runnable_ = thread_count_;
  ++barrier_epoch_;
  bump_progress();
}

void BlockRunner::switch_away_for_good(unsigned position, unsigned stack) {
  // The stack we are on is free once we have left it; nothing runs on it before then.
  release_stack(stack);
  EmuThread* next = next_runnable_after(position);
  if (!next && live_ > 0) next = resolve_stall();
  if (!next) {
    if (live_ > 0 && !grid_parked_) aborted_ = true;
    fiber::jump(main_fiber_, nullptr);  // a parked block is resumed at its last waiting thread
  }
  switch_to(next, nullptr);
  __builtin_unreachable();
}

void BlockRunner::abort_block() {
  aborted_ = true;
  launch_->aborted.store(true);
  fiber::jump(main_fiber_, nullptr);
  __builtin_unreachable();
}

int BlockRunner::barrier(BarrierKind kind, int predicate, const char* file, int line) {
  settle();
  EmuThread* self = current_;
  self->state = EmuThread::State::at_barrier;
  self->barrier_kind = kind;
  self->predicate = predicate;
  self->wait_file = file;
  self->wait_line = line;
  wait_and_switch(self);
  return self->barrier_result;
}

unsigned long long BlockRunner::warp_collective(WarpOp op, unsigned mask, unsigned long long value, int arg, int width,
                                                const char* file, int line) {
  settle();
  EmuThread* self = current_;
  warp_of(*self).op = op;
  warp_of(*self).mask = mask;
  warp_of(*self).value = value;
  warp_of(*self).arg = arg;
  warp_of(*self).width = width;
  self->wait_file = file;
  self->wait_line = line;
  if (!(mask >> self->context.lane() & 1u)) {
    report_warp_problem(*self, lane_not_in_mask(mask, self->context.lane()));
    abort_block();
  }
  if (!valid_width(width)) {
    report_warp_problem(*self, bad_width(width));
    abort_block();
  }
  self->state = EmuThread::State::at_warp;
  warp_arrived_[self->context.warp()] |= 1u << self->context.lane();
  const unsigned effective = mask & existing_lanes(self->context.warp());
  if (!try_complete_warp(self, effective)) wait_and_switch(self);
  return warp_of(*self).warp_result;
}

void BlockRunner::reset_after_fault() {
  leave_block();
  aborted_ = true;
}

void BlockRunner::append_printf(const char* text, size_t length) { printf_buffer_.append(text, length); }

}  // namespace gpulab::emu
