// cooperative_groups/memcpy_async.h on the emulator: cg::memcpy_async(group,
// dst, src, bytes) copies a contiguous range asynchronously, each member its
// share, as one batch of the calling thread's asynchronous copies (those of
// cuda_pipeline.h); cg::wait(group) and cg::wait_prior<N>(group) wait for this
// thread's batches, then synchronise the group, as in CUDA. The copies land
// when waited for, so reading the destination earlier shows stale data.
#pragma once
#include <cstddef>

#include "../cooperative_groups.h"
#include "gpulab/emu/async_copy.hpp"

namespace cooperative_groups {

template <class Group, class T, class Size>
inline void memcpy_async(const Group& group, T* dst, const T* src, const Size& bytes,
                         const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  const size_t total = static_cast<size_t>(bytes);
  const size_t members = static_cast<size_t>(group.size());
  const size_t share = (total + members - 1) / members;
  const size_t begin = static_cast<size_t>(group.thread_rank()) * share;
  if (begin < total) {
    const size_t n = total - begin < share ? total - begin : share;
    gpulab::emu::async_copy_issue(
        {reinterpret_cast<char*>(dst) + begin, reinterpret_cast<const char*>(src) + begin, n, 0}, file, line);
  }
  __pipeline_commit(file, line);
}

template <unsigned Stage, class Group>
inline void wait_prior(const Group& group, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  __pipeline_wait_prior(Stage, file, line);
  group.sync(file, line);
}

template <class Group>
inline void wait(const Group& group, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  __pipeline_wait_prior(0, file, line);
  group.sync(file, line);
}

}  // namespace cooperative_groups
