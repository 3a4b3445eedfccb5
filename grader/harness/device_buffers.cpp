// Implementation of device_buffers.hpp (cuda backend and emulator alike).
#include "harness/device_buffers.hpp"

#include <cuda_runtime.h>

#include <cstring>
#include <memory>

namespace gpulab::harness {
namespace {
#ifdef GPULAB_EMULATOR
constexpr size_t kGuardBytes = 0;
#else
constexpr size_t kGuardBytes = 64 * 1024;
#endif
// Output guards hold a pattern a stray write is unlikely to repeat; input guards hold
// all bits set (NaN as floats, -1 as integers, 255 as bytes), so a kernel that reads
// past its input gets values that spoil its result instead of harmless near-zeros.
unsigned char guard_byte(const DeviceBuffer& b) { return b.role == "input" ? 0xFF : 0xA5; }

std::string cuda_message(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }
}  // namespace

std::string allocate_buffer(DeviceBuffer& b, bool guard_zones) {
  b.bytes = b.host.byte_size();
  b.guard = guard_zones ? kGuardBytes : 0;
  const size_t guard = b.guard;
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&b.base), b.bytes + 2 * guard);
  if (e != cudaSuccess) return "cudaMalloc of " + std::to_string(b.bytes) + " bytes: " + cuda_message(e);
  b.data = b.base + guard;
  if (guard) {
    std::vector<unsigned char> pattern(guard, guard_byte(b));
    cudaMemcpy(b.base, pattern.data(), guard, cudaMemcpyHostToDevice);
    cudaMemcpy(b.data + b.bytes, pattern.data(), guard, cudaMemcpyHostToDevice);
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
    if (b.role == "input") {
      // Read back into memory left uninitialised (it is overwritten whole), compared with the values sent.
      const std::unique_ptr<unsigned char[]> now(new unsigned char[b.bytes ? b.bytes : 1]);
      if (b.bytes && (cudaMemcpy(now.get(), b.data, b.bytes, cudaMemcpyDeviceToHost) != cudaSuccess ||
                      std::memcmp(now.get(), b.host.data(), b.bytes) != 0)) {
        modified.push_back(b.name);
      }
    } else if (b.bytes && cudaMemcpy(b.host.data(), b.data, b.bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
      // Outputs straight into their host array; where they cannot be read, all bits set (NaN, -1):
      // never an earlier call's output, nor zeros that an all-zero expected output would accept.
      cudaGetLastError();
      std::memset(b.host.data(), 0xFF, b.bytes);
    }
    const size_t guard = b.guard;
    if (!guard) continue;
    std::vector<unsigned char> before(guard), after(guard);
    cudaMemcpy(before.data(), b.base, guard, cudaMemcpyDeviceToHost);
    cudaMemcpy(after.data(), b.data + b.bytes, guard, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < guard; ++i) {
      if (after[i] != guard_byte(b)) {
        overruns.push_back({{"buffer", b.name}, {"where", "after"}, {"offset", i}});
        break;
      }
    }
    for (size_t i = guard; i-- > 0;) {
      if (before[i] != guard_byte(b)) {
        overruns.push_back({{"buffer", b.name}, {"where", "before"}, {"offset", guard - i}});
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
