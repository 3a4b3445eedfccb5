// Copies described in three dimensions (cudaMemcpy3D, a graph's memcpy node) as the rows they are,
// and the check every copy gets (direction, device ranges), for the copies made later by a graph.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

#include "gpulab/emu/runtime_types.hpp"

namespace gpulab::emu {

struct CopyRows {
  std::vector<std::pair<char*, const char*>> rows;  // (destination, source) of each row
  size_t width = 0;                                 // bytes per row
};
// The rows of `p` (linear memory only: a CUDA array is refused); reports a refusal as `api`'s.
cudaError_t copy_rows(const char* api, const cudaMemcpy3DParms* p, CopyRows& out);
// Checks a copy of `count` bytes as cudaMemcpy does (the kind against the pointers, the device-side
// ranges); reports a refusal as `api`'s.
cudaError_t check_copy_range(const char* api, void* dst, const void* src, size_t count, cudaMemcpyKind kind);
// Makes a checked copy as the runtime makes every copy: the harness's observer is told first, with
// the direction the pointers give (copy_observer.hpp), and launch replays learn that memory changed.
void make_checked_copy(void* dst, const void* src, size_t count);

}  // namespace gpulab::emu
