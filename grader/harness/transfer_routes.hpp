// The routes by which bytes can reach host memory while a submission's host
// function runs, as the harness counts them (transfer_log.hpp) and the grader
// names them to the student (grade/case_runner.cpp): the one list both read.
// A route is either copies into host memory (counted as they execute) or
// host-visible memory (memory a kernel can write and the host can read,
// counted at its full size whenever it exists during the call).
#pragma once
#include <array>
#include <string_view>

namespace gpulab::harness {

struct TransferRoute {
  std::string_view id;     // in result.json
  std::string_view words;  // what the student reads
  bool host_visible;       // memory a kernel writes and the host reads, not a copy
};

inline constexpr std::array<TransferRoute, 6> kTransferRoutes{{
    {"copy",
     "copies from device to host memory (cudaMemcpy and its Async, 2D, 3D, peer, symbol, array and batch forms)",
     false},
    {"graph_memcpy_node", "memcpy nodes of CUDA graphs (added by hand or captured from a stream), as the graphs ran",
     false},
    {"managed_memory", "managed memory (cudaMallocManaged), at its full size", true},
    {"page_locked_memory",
     "page-locked host memory (cudaMallocHost, cudaHostAlloc), which kernels can write, at its full size", true},
    {"registered_memory", "registered host memory (cudaHostRegister), which kernels can write, at its full size", true},
    {"host_memory_pool", "memory from a memory pool located in host memory (cudaMemPoolCreate), at its full size",
     true},
}};

// The route with this id; null when there is none.
constexpr const TransferRoute* find_transfer_route(std::string_view id) {
  for (const TransferRoute& r : kTransferRoutes)
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace gpulab::harness
