// Asynchronous copies into shared memory (the primitives of cuda_pipeline.h,
// which compile to cp.async on a GPU). As on a GPU, a copy is only known to
// have landed once the thread has committed it and waited for its batch: the
// emulator performs each batch exactly then, so reading the destination too
// early gives the old contents (the poison of fresh shared memory: NaN, -1)
// instead of the data, the bug a GPU shows only now and then.
// Each GPU thread has its own batches, kept per worker thread (a worker runs
// one block at a time) and indexed by the thread's rank in its block.
#pragma once
#include <cstddef>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <vector>

#include "gpulab/emu/checking_build.hpp"
#include "gpulab/emu/execution_context.hpp"

#ifdef GPULAB_EMU_CHECKING_BUILD
extern "C" void __tsan_read_range(void* address, unsigned long size);
extern "C" void __tsan_write_range(void* address, unsigned long size);
#endif

namespace gpulab::emu {

void device_misuse(const char* kind, const char* what, const char* file, int line);  // reports, ends the block

struct AsyncCopy {
  void* dst;
  const void* src;
  size_t copy_bytes;  // read from src
  size_t fill_bytes;  // zeros after them
};

struct ThreadAsyncCopies {
  std::vector<AsyncCopy> open;                   // issued, not yet committed
  std::deque<std::vector<AsyncCopy>> committed;  // oldest batch first
};

// This GPU thread's copies; null (after reporting it) outside a kernel.
inline ThreadAsyncCopies* this_thread_async_copies(const char* file, int line) {
  if (!gpulab_emu_thread || !gpulab_emu_block) {
    device_misuse("async-copy", "the cuda_pipeline.h copies are device functions", file, line);
    return nullptr;
  }
  struct BlockCopies {
    unsigned long long generation = 0;
    std::vector<ThreadAsyncCopies> threads;
  };
  static thread_local BlockCopies table;
  if (table.generation != gpulab_emu_block->generation) {  // a new block: what an earlier one left is gone
    table.threads.clear();
    table.generation = gpulab_emu_block->generation;
  }
  const unsigned rank = gpulab_emu_thread->linear;
  if (table.threads.size() <= rank) table.threads.resize(rank + 1);
  return &table.threads[rank];
}

inline void perform_async_copies(const std::vector<AsyncCopy>& batch) {
  for (const AsyncCopy& c : batch) {
#ifdef GPULAB_EMU_CHECKING_BUILD
    // The checking build (--race-check) sees memory through instrumented accesses;
    // memcpy is not one, so the copy's read and write are recorded here.
    if (c.copy_bytes) __tsan_read_range(const_cast<void*>(c.src), c.copy_bytes);
    __tsan_write_range(c.dst, c.copy_bytes + c.fill_bytes);
#endif
    if (c.copy_bytes) std::memcpy(c.dst, c.src, c.copy_bytes);
    if (c.fill_bytes) std::memset(static_cast<char*>(c.dst) + c.copy_bytes, 0, c.fill_bytes);
  }
}

// Copies that a barrier phase waits for (cuda::memcpy_async with a barrier or
// a block-scope pipeline), by the barrier's address, kept per worker thread
// like the batches above: performed when that phase completes.
inline std::vector<AsyncCopy>& copies_attached_to(const void* barrier) {
  struct BlockAttached {
    unsigned long long generation = 0;
    std::unordered_map<const void*, std::vector<AsyncCopy>> by_barrier;
  };
  static thread_local BlockAttached table;
  if (table.generation != gpulab_emu_block->generation) {
    table.by_barrier.clear();
    table.generation = gpulab_emu_block->generation;
  }
  return table.by_barrier[barrier];
}

inline void perform_attached_copies(const void* barrier) {
  std::vector<AsyncCopy>& copies = copies_attached_to(barrier);
  perform_async_copies(copies);
  copies.clear();
}

}  // namespace gpulab::emu

// Copies size_and_align - zfill bytes from global src to shared dst and writes
// zfill zero bytes after them; 4, 8 or 16 bytes, both addresses aligned to it.
inline void __pipeline_memcpy_async(void* dst_shared, const void* src_global, size_t size_and_align, size_t zfill = 0,
                                    const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  if (size_and_align != 4 && size_and_align != 8 && size_and_align != 16) {
    gpulab::emu::device_misuse("async-copy", "__pipeline_memcpy_async copies 4, 8 or 16 bytes", file, line);
  }
  if (zfill > size_and_align) {
    gpulab::emu::device_misuse("async-copy", "__pipeline_memcpy_async: zfill is larger than the copy", file, line);
  }
  if (reinterpret_cast<size_t>(dst_shared) % size_and_align != 0 ||
      (zfill < size_and_align && reinterpret_cast<size_t>(src_global) % size_and_align != 0)) {
    gpulab::emu::device_misuse(
        "async-copy", "__pipeline_memcpy_async: both addresses must be aligned to the copy's size", file, line);
  }
  if (gpulab::emu::ThreadAsyncCopies* t = gpulab::emu::this_thread_async_copies(file, line))
    t->open.push_back({dst_shared, src_global, size_and_align - zfill, zfill});
}

// Closes the batch of copies issued since the last commit.
inline void __pipeline_commit(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  gpulab::emu::ThreadAsyncCopies* t = gpulab::emu::this_thread_async_copies(file, line);
  if (!t) return;
  t->committed.push_back(std::move(t->open));
  t->open.clear();
}

// Waits until at most `prior` committed batches (the newest) are still in flight.
inline void __pipeline_wait_prior(size_t prior, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  gpulab::emu::ThreadAsyncCopies* t = gpulab::emu::this_thread_async_copies(file, line);
  if (!t) return;
  while (t->committed.size() > prior) {
    gpulab::emu::perform_async_copies(t->committed.front());
    t->committed.pop_front();
  }
}
