// Asynchronous copies into shared memory (the primitives of cuda_pipeline.h,
// which compile to cp.async on a GPU). As on a GPU, a copy is only known to
// have landed once the thread has committed it and waited for its batch: the
// emulator performs each batch exactly then, so reading the destination too
// early gives the old contents (the poison of fresh shared memory: NaN, -1)
// instead of the data, the bug a GPU shows only now and then.
// Each GPU thread has its own batches, kept by the runtime per worker thread (a
// worker runs one block at a time) and indexed by the thread's rank in its block.
#pragma once
#include <cstddef>
#include <cstring>
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

// This GPU thread's batches are kept by the emulator's runtime (src/async_copy.cpp), which the
// checking build does not instrument: its tables, growing on the heap as copies are issued, are the
// emulator's memory, never accesses of the program's kernel.
// Adds `copy` to this thread's open batch (reporting a call outside a kernel).
void async_copy_issue(const AsyncCopy& copy, const char* file, int line);
// Closes the batch of copies issued since the last commit.
void async_copy_commit(const char* file, int line);
// Performs, oldest first, this thread's committed batches but the newest `prior`, each through `perform`.
using PerformCopies = void (*)(const AsyncCopy* copies, size_t count);
void async_copy_wait(size_t prior, PerformCopies perform, const char* file, int line);
// Copies that a barrier phase waits for (cuda::memcpy_async with a barrier or a block-scope
// pipeline), by the barrier's address: attached, then performed when that phase completes.
void async_copy_attach(const void* barrier, const AsyncCopy& copy);
void async_copy_perform_attached(const void* barrier, PerformCopies perform);

// Performs copies the runtime hands over (its own memory: not an access of the program's, so not
// instrumented in the checking build, which records each copy's ranges itself).
#ifdef GPULAB_EMU_CHECKING_BUILD
__attribute__((no_sanitize("thread")))
#endif
inline void
perform_copies(const AsyncCopy* copies, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const AsyncCopy& c = copies[i];
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

// `batch`: a contiguous container of AsyncCopy (a std::vector or std::pmr::vector).
template <class Batch> inline void perform_async_copies(const Batch& batch) {
  perform_copies(batch.data(), batch.size());
}

inline void perform_attached_copies(const void* barrier) { async_copy_perform_attached(barrier, &perform_copies); }

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
  gpulab::emu::async_copy_issue({dst_shared, src_global, size_and_align - zfill, zfill}, file, line);
}

// Closes the batch of copies issued since the last commit.
inline void __pipeline_commit(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  gpulab::emu::async_copy_commit(file, line);
}

// Waits until at most `prior` committed batches (the newest) are still in flight.
inline void __pipeline_wait_prior(size_t prior, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  gpulab::emu::async_copy_wait(prior, &gpulab::emu::perform_copies, file, line);
}
