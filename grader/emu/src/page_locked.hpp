// Which host memory is page-locked (cudaMallocHost, cudaHostAlloc): copies
// between it and the device are asynchronous with the host, as on a GPU; copies
// with pageable memory return once done.
#pragma once
#include <cstddef>

namespace gpulab::emu {
void note_page_locked(const void* ptr, size_t size);
void forget_page_locked(const void* ptr);
bool is_page_locked(const void* ptr, size_t size);  // the whole range lies in one page-locked block
}  // namespace gpulab::emu
