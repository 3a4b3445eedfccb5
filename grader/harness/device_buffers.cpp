// Implementation of device_buffers.hpp (cuda backend and emulator alike).
#include "harness/device_buffers.hpp"

#include <cuda_runtime.h>

#include <cstring>

namespace gpulab::harness {
namespace {
#ifdef GPULAB_EMULATOR
constexpr size_t kGuard = 0;
#else
constexpr size_t kGuard = 64 * 1024;
#endif
constexpr unsigned char kGuardByte = 0xA5;

std::string cuda_message(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}
}  // namespace

std::string allocate_buffer(DeviceBuffer& b) {
  b.bytes = b.host.byte_size();
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&b.base), b.bytes + 2 * kGuard);
  if (e != cudaSuccess) return "cudaMalloc of " + std::to_string(b.bytes) + " bytes: " + cuda_message(e);
  b.data = b.base + kGuard;
  if (kGuard) {
    std::vector<unsigned char> pattern(kGuard, kGuardByte);
    cudaMemcpy(b.base, pattern.data(), kGuard, cudaMemcpyHostToDevice);
    cudaMemcpy(b.data + b.bytes, pattern.data(), kGuard, cudaMemcpyHostToDevice);
  }
  if (b.role == "input") {
    cudaMemcpy(b.data, b.host.data(), b.bytes, cudaMemcpyHostToDevice);
  } else {
    reset_output(b);
  }
  return "";
}

void reset_output(const DeviceBuffer& b) { cudaMemset(b.data, b.zero_initial ? 0 : 0xFF, b.bytes); }

std::string upload_input(DeviceBuffer& b, NdArray values) {
  if (values.byte_size() != b.bytes) {
    return "input '" + b.name + "' of the recheck has " + std::to_string(values.byte_size()) + " bytes, not " +
           std::to_string(b.bytes);
  }
  b.host = std::move(values);
  cudaMemcpy(b.data, b.host.data(), b.bytes, cudaMemcpyHostToDevice);
  return "";
}

void inspect_after_call(std::vector<DeviceBuffer>& buffers, nlohmann::json& result) {
  nlohmann::json modified = nlohmann::json::array(), overruns = nlohmann::json::array();
  for (DeviceBuffer& b : buffers) {
    std::vector<unsigned char> now(b.bytes);
    if (b.bytes) cudaMemcpy(now.data(), b.data, b.bytes, cudaMemcpyDeviceToHost);
    if (b.role == "input") {
      if (b.bytes && std::memcmp(now.data(), b.host.data(), b.bytes) != 0) modified.push_back(b.name);
    } else if (b.bytes) {
      std::memcpy(b.host.data(), now.data(), b.bytes);
    }
    if (!kGuard) continue;
    std::vector<unsigned char> before(kGuard), after(kGuard);
    cudaMemcpy(before.data(), b.base, kGuard, cudaMemcpyDeviceToHost);
    cudaMemcpy(after.data(), b.data + b.bytes, kGuard, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < kGuard; ++i) {
      if (after[i] != kGuardByte) {
        overruns.push_back({{"buffer", b.name}, {"where", "after"}, {"offset", i}});
        break;
      }
    }
    for (size_t i = kGuard; i-- > 0;) {
      if (before[i] != kGuardByte) {
        overruns.push_back({{"buffer", b.name}, {"where", "before"}, {"offset", kGuard - i}});
        break;
      }
    }
  }
  result["inputs_modified"] = modified;
  result["guard_overruns"] = overruns;
}

void free_buffers(std::vector<DeviceBuffer>& buffers) {
  for (DeviceBuffer& b : buffers) cudaFree(b.base);
  buffers.clear();
}

}  // namespace gpulab::harness
