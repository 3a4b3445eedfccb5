// Fiber scheduling of one block: barriers, warp collectives, shared memory,
// and the diagnostics for blocks that cannot make progress.
#include "block_runner.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include "checker_hooks.hpp"
#include "gpulab/emu/shared_memory.hpp"
#include "diagnostics.hpp"
#include "watchdog.hpp"

__thread gpulab::emu::ThreadContext* gpulab_emu_thread = nullptr;
__thread gpulab::emu::BlockContext* gpulab_emu_block = nullptr;
__thread const gpulab::emu::LaunchContext* gpulab_emu_launch = nullptr;

namespace gpulab::emu {
namespace {
constexpr unsigned kMaxThreads = 1024;
constexpr size_t kStackBytes = 64 * 1024;
constexpr size_t kSharedCapacity = 232448;  // the largest opt-in block shared memory of sm_90
constexpr unsigned char kPoison = 0xFF;

__thread BlockRunner* tl_runner = nullptr;
__thread BlockRunner* tl_running = nullptr;

const char* barrier_name(BarrierKind k) {
  switch (k) {
    case BarrierKind::count: return "__syncthreads_count()";
    case BarrierKind::all: return "__syncthreads_and()";
    case BarrierKind::any: return "__syncthreads_or()";
    default: return "__syncthreads()";
  }
}
const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::shfl_idx: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
    case WarpOp::match_any: return "__match_any_sync";
    default: return "__syncwarp";
  }
}
std::string hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}
}  // namespace

std::string LaunchState::where() const {
  return "kernel '" + std::string(request.kernel_name) + "' launched at " + request.file + ":" +
         std::to_string(request.line);
}

namespace {
struct NamespaceShared {
  void* (*address)();
  size_t bytes;
  const char* file;
  int line;
};
std::vector<NamespaceShared>& namespace_shared() {
  static std::vector<NamespaceShared> list;
  return list;
}
}  // namespace

namespace_shared_registration::namespace_shared_registration(void* (*address)(), size_t bytes, const char* file,
                                                             int line) {
  namespace_shared().push_back(NamespaceShared{address, bytes, file, line});
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

BlockRunner::BlockRunner()
    : stacks_(kMaxThreads, kStackBytes),
      threads_(kMaxThreads),
      warp_slots_(kMaxThreads),
      parked_on_(kMaxThreads),
      shared_arena_(new unsigned char[kSharedCapacity]),
      shared_capacity_(kSharedCapacity) {
  watch_runner(this, &progress_);
}

BlockRunner::~BlockRunner() = default;

std::string BlockRunner::block_label() const {
  return format_index(block_.block_idx.x, block_.block_idx.y, block_.block_idx.z);
}
std::string BlockRunner::thread_label(const EmuThread& t) const {
  return format_index(t.context.thread_idx.x, t.context.thread_idx.y, t.context.thread_idx.z);
}

bool BlockRunner::run_block(LaunchState& launch, unsigned long long block_linear) {
  launch_ = &launch;
  const dim3 g = launch.request.grid;
  const dim3 b = launch.request.block;
  block_.block_idx = uint3{static_cast<unsigned>(block_linear % g.x),
                           static_cast<unsigned>((block_linear / g.x) % g.y),
                           static_cast<unsigned>(block_linear / (static_cast<unsigned long long>(g.x) * g.y))};
  block_.generation = ++generation_;
  block_linear_ = block_linear;
  barrier_epoch_ = 0;
  progress_.fetch_add(1, std::memory_order_relaxed);
  static_shared_used_ = launch.request.dynamic_shared_bytes;
  block_.dynamic_shared = shared_arena_.get();
  std::memset(shared_arena_.get(), kPoison, launch.request.dynamic_shared_bytes);
  printf_buffer_.clear();

  thread_count_ = launch.threads_per_block;
  for (unsigned i = 0; i < thread_count_; ++i) {
    EmuThread& t = threads_[i];
    t.context.thread_idx = uint3{i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
    t.context.linear = i;
    t.context.lane = i % 32;
    t.context.warp = i / 32;
    t.state = EmuThread::State::runnable;
    // Stagger the stack tops so that the fibers' hot frames do not all fall in the same cache sets.
    const size_t colour = (i % 64) * 64;
    t.fiber = fiber::make(static_cast<char*>(stacks_.top(i)) - colour, stacks_.stack_bytes() - colour,
                                 &BlockRunner::thread_entry);
  }
  live_ = runnable_ = thread_count_;
  coalescing_ = 0;
  aborted_ = false;

  gpulab_emu_block = &block_;
  gpulab_emu_launch = &launch.context;
  tl_running = this;
  current_ = &threads_[0];
  gpulab_emu_thread = &threads_[0].context;
  if (checker_hooks) checker_hooks->block_begin(*this, shared_arena_.get(), launch.request.dynamic_shared_bytes);
  for (const NamespaceShared& v : namespace_shared()) {
    void* p = v.address();
    std::memset(p, kPoison, v.bytes);
    static_shared_used_ += (v.bytes + 15) / 16 * 16;  // counts towards the block's shared memory limit
    if (checker_hooks) checker_hooks->shared_allocated(*this, p, v.bytes, v.file, v.line);
  }
  fiber::jump(threads_[0].fiber, &main_fiber_);
  if (checker_hooks) checker_hooks->block_end(*this);
  // Back here once every thread has exited, or the block was aborted.
  leave_block();
  return !aborted_;
}

void BlockRunner::leave_block() {
  gpulab_emu_thread = nullptr;
  gpulab_emu_block = nullptr;
  gpulab_emu_launch = nullptr;
  tl_running = nullptr;
  current_ = nullptr;
  launch_ = nullptr;
}

void BlockRunner::thread_entry(fiber::transfer transfer) {
  if (transfer.data) *static_cast<fiber::context*>(transfer.data) = transfer.from;
  BlockRunner* self = tl_running;
  const KernelBody& body = self->launch_->body;
  body.invoke(body.closure);
  self->finish_thread(self->current_);
}

inline void BlockRunner::switch_to(EmuThread* next, fiber::context* save) {
  // Threads mostly run in rank order: warm the caches for the one after `next`,
  // whose saved registers and kernel frame sit just above its saved stack pointer.
  if (next->context.linear + 2 < thread_count_) {
    const EmuThread& soon = threads_[next->context.linear + 2];
    const char* sp = static_cast<const char*>(soon.fiber);
    for (int line = 0; line < 5; ++line) __builtin_prefetch(sp + 64 * line);
    __builtin_prefetch(&threads_[next->context.linear + 3]);
  }
  current_ = next;
  gpulab_emu_thread = &next->context;
  fiber::transfer t = fiber::jump(next->fiber, save);
  if (t.data) *static_cast<fiber::context*>(t.data) = t.from;
}

inline EmuThread* BlockRunner::next_runnable_after(EmuThread* self) {
  if (runnable_ == 0) return nullptr;
  const unsigned start = self->context.linear;
  for (unsigned k = 1; k <= thread_count_; ++k) {
    unsigned i = start + k;
    if (i >= thread_count_) i -= thread_count_;
    if (threads_[i].state == EmuThread::State::runnable) return &threads_[i];
  }
  return nullptr;
}

inline void BlockRunner::wait_and_switch(EmuThread* self) {
  --runnable_;
  EmuThread* next = next_runnable_after(self);
  if (!next) next = resolve_stall();
  if (!next) {
    aborted_ = true;
    fiber::jump(main_fiber_, nullptr);  // never resumed
  }
  if (next != self) switch_to(next, &self->fiber);
}

void BlockRunner::suspend(EmuThread* self) { wait_and_switch(self); }

void BlockRunner::finish_thread(EmuThread* self) {
  self->state = EmuThread::State::exited;
  progress_.fetch_add(1, std::memory_order_relaxed);
  --live_;
  --runnable_;
  EmuThread* next = next_runnable_after(self);
  if (!next && live_ > 0) next = resolve_stall();
  if (!next) {
    if (live_ > 0) aborted_ = true;
    fiber::jump(main_fiber_, nullptr);
  }
  current_ = next;
  gpulab_emu_thread = &next->context;
  fiber::jump(next->fiber, nullptr);
  __builtin_unreachable();
}

void BlockRunner::abort_block() {
  aborted_ = true;
  launch_->aborted.store(true);
  fiber::jump(main_fiber_, nullptr);
  __builtin_unreachable();
}

EmuThread* BlockRunner::resolve_stall() {
  if (EmuThread* t = release_coalesced()) return t;
  // Every live thread waits. If all of them wait at the same barrier, release it.
  EmuThread* first = nullptr;
  bool same = live_ == thread_count_;
  for (unsigned i = 0; i < thread_count_ && same; ++i) {
    EmuThread& t = threads_[i];
    if (t.state != EmuThread::State::at_barrier) {
      same = false;
    } else if (!first) {
      first = &t;
    } else if (t.wait_line != first->wait_line || t.barrier_kind != first->barrier_kind ||
               (t.wait_file != first->wait_file && std::strcmp(t.wait_file, first->wait_file) != 0)) {
      same = false;
    }
  }
  if (!same || !first) {
    report_stall();
    launch_->aborted.store(true);
    return nullptr;
  }
  int result = 0;
  for (unsigned i = 0; i < thread_count_; ++i) {
    const int p = threads_[i].predicate != 0;
    switch (first->barrier_kind) {
      case BarrierKind::count: result += p; break;
      case BarrierKind::all: result = (i == 0 ? p : (result && p)); break;
      case BarrierKind::any: result = result || p; break;
      default: break;
    }
  }
  for (unsigned i = 0; i < thread_count_; ++i) {
    threads_[i].state = EmuThread::State::runnable;
    threads_[i].barrier_result = result;
  }
  runnable_ = thread_count_;
  ++barrier_epoch_;
  progress_.fetch_add(1, std::memory_order_relaxed);
  if (checker_hooks) checker_hooks->barrier_released(*this);
  return &threads_[0];
}

void BlockRunner::report_stall() {
  // Group the threads by what they are doing, to say who diverged where.
  std::map<std::tuple<std::string, int, std::string>, std::vector<unsigned>> groups;
  std::vector<unsigned> exited;
  for (unsigned i = 0; i < thread_count_; ++i) {
    const EmuThread& t = threads_[i];
    if (t.state == EmuThread::State::exited) {
      exited.push_back(i);
    } else if (t.state == EmuThread::State::at_barrier) {
      groups[{t.wait_file, t.wait_line, barrier_name(t.barrier_kind)}].push_back(i);
    } else if (t.state == EmuThread::State::at_warp) {
      groups[{t.wait_file, t.wait_line, warp_op_name(warp_of(t).op)}].push_back(i);
    } else if (t.state == EmuThread::State::parked) {
      groups[{t.wait_file, t.wait_line, parked_on_[i].what}].push_back(i);
    }
  }
  bool any_warp = false;
  bool any_parked = false;
  for (unsigned i = 0; i < thread_count_; ++i) {
    any_warp |= threads_[i].state == EmuThread::State::at_warp;
    any_parked |= threads_[i].state == EmuThread::State::parked;
  }

  Diagnostic d;
  d.severity = "error";
  d.kernel = launch_->request.kernel_name;
  d.block = block_label();
  std::string parts;
  int first_line = 0;
  std::string first_file;
  for (const auto& [key, ranks] : groups) {
    if (!parts.empty()) parts += "; ";
    parts += "threads " + format_ranks(ranks) + " wait at " + std::get<2>(key) + " on line " +
             std::to_string(std::get<1>(key));
    if (!first_line) {
      first_line = std::get<1>(key);
      first_file = std::get<0>(key);
    }
  }
  if (!exited.empty()) parts += "; threads " + format_ranks(exited) + " have already exited";
  d.file = first_file;
  d.line = first_line;
  if (any_parked && !any_warp) {
    d.kind = "barrier-deadlock";
    d.message = "a barrier can never complete in " + launch_->where() + ", block " + block_label() + ": " + parts +
                ". A cuda::barrier phase (or a pipeline stage, or the sync of a tile larger than a warp) "
                "completes only when every thread it expects has arrived: check the count given to init() "
                "and that no expected thread exits, returns early or waits elsewhere first. On a GPU this hangs.";
  } else if (any_warp) {
    d.kind = "warp-deadlock";
    d.message = "warp collective cannot complete in " + launch_->where() + ", block " + block_label() + ": " +
                parts +
                ". Every lane named in a *_sync mask must reach the same call; use __activemask() or a mask "
                "of the lanes that really take this branch.";
  } else {
    d.kind = "barrier-divergence";
    d.message = "barrier divergence in " + launch_->where() + ", block " + block_label() + ": " + parts +
                ". Every thread of a block must reach the same __syncthreads(); keep barriers out of "
                "conditions that differ between threads (guard the work, not the barrier, and do not "
                "return early before a barrier). On a GPU this hangs or silently gives wrong results.";
  }
  d.threads = format_ranks([&] {
    std::vector<unsigned> all;
    for (unsigned i = 0; i < thread_count_; ++i) all.push_back(i);
    return all;
  }());
  report(std::move(d), cudaErrorLaunchFailure);
}

int BlockRunner::barrier(BarrierKind kind, int predicate, const char* file, int line) {
  EmuThread* self = current_;
  self->state = EmuThread::State::at_barrier;
  self->barrier_kind = kind;
  self->predicate = predicate;
  self->wait_file = file;
  self->wait_line = line;
  wait_and_switch(self);
  return self->barrier_result;
}

unsigned BlockRunner::existing_lanes(unsigned warp) const {
  const unsigned first = warp * 32;
  const unsigned n = std::min(32u, thread_count_ - first);
  return n == 32 ? 0xffffffffu : ((1u << n) - 1u);
}

unsigned BlockRunner::active_mask() const {
  const EmuThread* self = current_;
  const unsigned warp = self->context.warp;
  unsigned m = 0;
  for (unsigned l = 0; l < 32 && warp * 32 + l < thread_count_; ++l) {
    if (threads_[warp * 32 + l].state != EmuThread::State::exited) m |= 1u << l;
  }
  return m;
}

void BlockRunner::report_warp_problem(const EmuThread& t, const std::string& what) {
  Diagnostic d;
  d.kind = "warp-misuse";
  d.severity = "error";
  d.kernel = launch_->request.kernel_name;
  d.file = t.wait_file;
  d.line = t.wait_line;
  d.block = block_label();
  d.threads = thread_label(t);
  d.message = std::string(warp_op_name(warp_of(t).op)) + " on line " + std::to_string(t.wait_line) + " in " +
              launch_->where() + ", block " + block_label() + ", thread " + thread_label(t) + ": " + what;
  report(std::move(d), cudaErrorLaunchFailure);
}

bool BlockRunner::try_complete_warp(EmuThread* self, unsigned effective) {
  const unsigned base = self->context.warp * 32;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(effective >> l & 1u)) continue;
    const EmuThread& t = threads_[base + l];
    if (t.state != EmuThread::State::at_warp || warp_of(t).op != warp_of(*self).op || warp_of(t).mask != warp_of(*self).mask) return false;
  }
  // Everyone is here: compute each lane's result.
  const int width = warp_of(*self).width;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(effective >> l & 1u)) continue;
    EmuThread& t = threads_[base + l];
    unsigned long long r = 0;
    const int lane = static_cast<int>(l);
    const int seg = lane / width * width;
    int src = -1;
    switch (warp_of(t).op) {
      case WarpOp::shfl_idx: src = seg + ((warp_of(t).arg % width) + width) % width; break;
      case WarpOp::shfl_up: src = lane - warp_of(t).arg >= seg ? lane - warp_of(t).arg : lane; break;
      case WarpOp::shfl_down: src = lane + warp_of(t).arg < seg + width ? lane + warp_of(t).arg : lane; break;
      case WarpOp::shfl_xor: src = (lane ^ warp_of(t).arg) < seg + width ? (lane ^ warp_of(t).arg) : lane; break;
      case WarpOp::ballot:
        for (unsigned k = 0; k < 32; ++k)
          if ((effective >> k & 1u) && warp_slots_[base + k].value) r |= 1ull << k;
        break;
      case WarpOp::any:
        for (unsigned k = 0; k < 32; ++k)
          if ((effective >> k & 1u) && warp_slots_[base + k].value) r = 1;
        break;
      case WarpOp::all:
        r = 1;
        for (unsigned k = 0; k < 32; ++k)
          if ((effective >> k & 1u) && !warp_slots_[base + k].value) r = 0;
        break;
      case WarpOp::match_any:
        for (unsigned k = 0; k < 32; ++k)
          if ((effective >> k & 1u) && warp_slots_[base + k].value == warp_of(t).value) r |= 1ull << k;
        break;
      case WarpOp::sync: break;
    }
    if (src >= 0) {
      if (effective >> src & 1u) {
        r = warp_slots_[base + src].value;
      } else {
        report_warp_problem(t, "lane " + std::to_string(lane) + " reads lane " + std::to_string(src) +
                                   ", which is not in the mask " + hex(warp_of(t).mask) +
                                   " (or does not exist); the value it gets on a GPU is undefined.");
        abort_block();
      }
    }
    warp_of(t).warp_result = r;
    if (&t != self) {
      t.state = EmuThread::State::runnable;
      ++runnable_;
    }
  }
  self->state = EmuThread::State::runnable;
  progress_.fetch_add(1, std::memory_order_relaxed);
  if (checker_hooks) checker_hooks->warp_synchronised(*this, self->context.warp, effective);
  return true;
}

unsigned long long BlockRunner::warp_collective(WarpOp op, unsigned mask, unsigned long long value, int arg,
                                                int width, const char* file, int line) {
  EmuThread* self = current_;
  warp_of(*self).op = op;
  warp_of(*self).mask = mask;
  warp_of(*self).value = value;
  warp_of(*self).arg = arg;
  warp_of(*self).width = width;
  self->wait_file = file;
  self->wait_line = line;
  if (!(mask >> self->context.lane & 1u)) {
    report_warp_problem(*self, "the mask " + hex(mask) + " does not include the calling lane " +
                                   std::to_string(self->context.lane) +
                                   "; a thread must name itself in the mask it passes.");
    abort_block();
  }
  if (width <= 0 || width > 32 || (width & (width - 1)) != 0) {
    report_warp_problem(*self, "width " + std::to_string(width) + " must be a power of two between 1 and 32.");
    abort_block();
  }
  self->state = EmuThread::State::at_warp;
  const unsigned effective = mask & existing_lanes(self->context.warp);
  if (!try_complete_warp(self, effective)) wait_and_switch(self);
  return warp_of(*self).warp_result;
}

void* BlockRunner::allocate_static_shared(size_t bytes, size_t alignment, const char* file, int line) {
  alignment = std::max<size_t>(alignment, 16);
  const size_t offset = (static_shared_used_ + alignment - 1) / alignment * alignment;
  if (offset + bytes > launch_->shared_limit) {
    Diagnostic d;
    d.kind = "shared-memory-limit";
    d.severity = "error";
    d.kernel = launch_->request.kernel_name;
    d.file = launch_->request.file;
    d.line = launch_->request.line;
    d.block = block_label();
    d.message = launch_->where() + " needs " + std::to_string(offset + bytes) +
                " bytes of shared memory per block (dynamic " + std::to_string(launch_->request.dynamic_shared_bytes) +
                " + __shared__ variables), more than the " + std::to_string(launch_->shared_limit) +
                " bytes a block may use; use smaller tiles or fewer shared arrays.";
    report(std::move(d), cudaErrorLaunchOutOfResources);
    abort_block();
  }
  static_shared_used_ = offset + bytes;
  unsigned char* p = shared_arena_.get() + offset;
  std::memset(p, kPoison, bytes);
  if (checker_hooks) checker_hooks->shared_allocated(*this, p, bytes, file, line);
  return p;
}

void BlockRunner::reset_after_fault() {
  leave_block();
  aborted_ = true;
}

void BlockRunner::append_printf(const char* text, size_t length) { printf_buffer_.append(text, length); }

}  // namespace gpulab::emu
