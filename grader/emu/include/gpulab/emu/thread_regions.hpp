// What a kernel's region form calls (the rewriter writes it: grader/rewriter/region_emit.hpp).
// A kernel whose barriers all sit in code every thread of the block reaches together gets, in
// front of its body, a second version of itself that runs a whole block: each stretch of code
// between two barriers (a region) is one loop over the block's threads, and a barrier is simply the
// end of a loop. The runtime lets the first thread of a block take that version when nothing needs
// one fiber per thread (grader/emu/src/region_runner.cpp); then the sweep that would have called
// the other threads ends, since they have all run.
//
//   if (::gpulab::emu::RegionBlock gpulab_rb; gpulab_rb.begin()) {
//     ...
//     GPULAB_EMU_EACH_THREAD(gpulab_rb) { <a region's statements, threadIdx read as gpulab_tid> }
//     gpulab_rb.barrier();
//     ...
//   }
//
// Variables a later region reads again are kept in per-thread slots (storage<T>(), one T per
// thread, from a per-worker arena released by RegionScope at the end of the enclosing block).
#pragma once
#include <cstddef>
#include <type_traits>

#include "gpulab/emu/execution_context.hpp"
#include "gpulab/emu/region_warps.hpp"
#include "gpulab/emu/thread_sweep.hpp"

namespace gpulab::emu {

// Memory for per-thread slots: one reservation per worker, used as a stack.
struct RegionArena {
  unsigned char* base = nullptr;
  std::size_t top = 0;
  std::size_t capacity = 0;
};
[[noreturn]] void region_storage_exhausted(std::size_t wanted, std::size_t capacity);

class RegionBlock {
 public:
  RegionBlock() = default;
  RegionBlock(const RegionBlock&) = delete;
  RegionBlock& operator=(const RegionBlock&) = delete;
  ~RegionBlock() {
    if (active_) finish();
  }

  // True when the calling thread (the block's first) runs the whole block as regions. A kernel with
  // warp collectives (`warps`) runs so only in whole warps: a partial last warp keeps its fibers.
  bool begin(bool warps = false);
  unsigned threads() const { return threads_; }

  // The thread a region's loop is at: its rank, for reports and the watchdog, and, when the region
  // calls code that may read threadIdx through the runtime, its indices.
  void at(unsigned rank) const { store_rank(&context_->linear, rank); }
  void at(unsigned rank, unsigned x, unsigned y, unsigned z) const {
    context_->thread_idx = ::uint3{x, y, z};
    store_rank(&context_->linear, rank);
  }
  // Every thread has reached a barrier (the end of a region): the block made progress.
  void barrier();

  // __syncthreads_count / _and / _or over the predicates the threads left in `p`.
  int count(const int* p) const {
    int n = 0;
    for (unsigned i = 0; i < threads_; ++i) n += p[i];
    return n;
  }
  int all(const int* p) const { return count(p) == static_cast<int>(threads_) ? 1 : 0; }
  int any(const int* p) const { return count(p) != 0 ? 1 : 0; }

  // A warp collective every thread reached together: checks the mask and width for each thread as
  // the fibers do (a misuse is reported and ends the block), then gives each thread its result in
  // `out` from the values and lanes (or deltas) the threads left (region_warps.cpp).
  void warp(WarpOp op, unsigned mask, int width, const unsigned long long* values, const int* lanes,
            unsigned long long* out, const char* file, int line) const;

  // One T per thread, uninitialised, until the enclosing RegionScope ends.
  template <class T> T* storage() {
    constexpr std::size_t align = alignof(T) > 64 ? alignof(T) : 64;
    const std::size_t at = (arena_->top + align - 1) / align * align;
    const std::size_t bytes = sizeof(T) * threads_;
    if (at + bytes > arena_->capacity) region_storage_exhausted(at + bytes, arena_->capacity);
    arena_->top = at + bytes;
    return reinterpret_cast<T*>(arena_->base + at);
  }
  std::size_t mark() const { return arena_->top; }
  void release(std::size_t mark) { arena_->top = mark; }

  ::dim3 dim{1, 1, 1};  // the block's shape (the loops' bounds)

 private:
  void finish();
  bool active_ = false;
  unsigned threads_ = 0;
  ThreadContext* context_ = nullptr;
  RegionArena* arena_ = nullptr;
};

// Releases the slots taken in a block of the region form when it ends.
class RegionScope {
 public:
  explicit RegionScope(RegionBlock& block) : block_(block), mark_(block.mark()) {}
  RegionScope(const RegionScope&) = delete;
  RegionScope& operator=(const RegionScope&) = delete;
  ~RegionScope() { block_.release(mark_); }

 private:
  RegionBlock& block_;
  std::size_t mark_;
};

// Where a slot's object is constructed (cv-qualifiers dropped, so that a const variable's slot can
// be initialised).
inline void* region_slot(const volatile void* p) { return const_cast<void*>(p); }
template <class T> using region_value_t = std::remove_cv_t<std::remove_reference_t<T>>;

// Blocks that ran as regions since the program started (for tests: each way of running must be taken).
unsigned long long region_blocks_run();

// What the rewriter decided for a kernel, said at program start under GPULAB_EMU_VERBOSE=1
// (`gpulab run --verbose`). kind: 0 plain calls (no barriers), 1 regions, 2 one fiber per thread.
struct region_note {
  region_note(const char* kernel, const char* file, int line, int kind, const char* reason);
};

}  // namespace gpulab::emu

#include "gpulab/emu/region_loop_macros.hpp"
