// The runtime's side of gpulab/emu/async_copy.hpp: each GPU thread's batches of asynchronous
// copies and the copies attached to a barrier's phase, kept per worker thread (a worker runs one
// block at a time; a new block finds its tables empty). Compiled into the emulator's library,
// which the checking build does not instrument, so that these tables, growing on the heap, are
// never taken for accesses of the program's kernel.
#include <deque>
#include <unordered_map>
#include <vector>

#include "gpulab/emu/async_copy.hpp"

namespace gpulab::emu {
namespace {

struct ThreadAsyncCopies {
  std::vector<AsyncCopy> open;                   // issued, not yet committed
  std::deque<std::vector<AsyncCopy>> committed;  // oldest batch first
};

// This GPU thread's copies; null (after reporting it) outside a kernel.
ThreadAsyncCopies* this_thread_copies(const char* file, int line) {
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

std::vector<AsyncCopy>& copies_attached_to(const void* barrier) {
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

}  // namespace

void async_copy_issue(const AsyncCopy& copy, const char* file, int line) {
  if (ThreadAsyncCopies* t = this_thread_copies(file, line)) t->open.push_back(copy);
}

void async_copy_commit(const char* file, int line) {
  ThreadAsyncCopies* t = this_thread_copies(file, line);
  if (!t) return;
  t->committed.push_back(std::move(t->open));
  t->open.clear();
}

void async_copy_wait(size_t prior, PerformCopies perform, const char* file, int line) {
  ThreadAsyncCopies* t = this_thread_copies(file, line);
  if (!t) return;
  while (t->committed.size() > prior) {
    const std::vector<AsyncCopy> batch = std::move(t->committed.front());
    t->committed.pop_front();
    perform(batch.data(), batch.size());
  }
}

void async_copy_attach(const void* barrier, const AsyncCopy& copy) { copies_attached_to(barrier).push_back(copy); }

void async_copy_perform_attached(const void* barrier, PerformCopies perform) {
  std::vector<AsyncCopy> copies = std::move(copies_attached_to(barrier));
  copies_attached_to(barrier).clear();
  perform(copies.data(), copies.size());
}

}  // namespace gpulab::emu
