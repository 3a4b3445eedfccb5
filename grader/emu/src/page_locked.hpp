// Which host memory is page-locked (cudaMallocHost, cudaHostAlloc, cudaHostRegister; kept by
// host_memory_api.cpp): copies between it and the device are asynchronous with the host, as on
// a GPU; copies with pageable memory return once done.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpulab::emu {
bool is_page_locked(const void* ptr, size_t size);  // the whole range lies in one page-locked range
// Every page-locked range (begin, bytes), in address order: kernels may read and write them.
std::vector<std::pair<uintptr_t, size_t>> page_locked_ranges();
// The starts of the page-locked memory cudaMallocHost and cudaHostAlloc made (not registered ranges).
std::vector<uintptr_t> allocated_page_locked();
}  // namespace gpulab::emu
