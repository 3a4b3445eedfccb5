// Which host memory is page-locked (cudaMallocHost, cudaHostAlloc, cudaHostRegister; kept by
// host_memory_api.cpp): copies between it and the device are asynchronous with the host, as on
// a GPU; copies with pageable memory return once done.
#pragma once
#include <cstddef>

namespace gpulab::emu {
bool is_page_locked(const void* ptr, size_t size);  // the whole range lies in one page-locked range
}  // namespace gpulab::emu
