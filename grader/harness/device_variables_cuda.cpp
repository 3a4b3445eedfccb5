// submission_state.hpp's device variables on a GPU: nvcc registers every __device__ and
// __constant__ variable with the runtime before main (__cudaRegisterVar, wrapped at link time:
// copy_entry_points.hpp), naming its host shadow; those whose shadow lies in the submission's own
// sections are the submission's (the harness's own device variables lie elsewhere).
#include <cuda_runtime.h>

#include <mutex>

#include "harness/submission_state.hpp"

extern "C" char __start_gpulab_submission_data[] __attribute__((weak));
extern "C" char __stop_gpulab_submission_data[] __attribute__((weak));
extern "C" char __start_gpulab_submission_bss[] __attribute__((weak));
extern "C" char __stop_gpulab_submission_bss[] __attribute__((weak));

namespace {
std::mutex variables_mutex;
std::vector<gpulab::harness::DeviceVariable>& registered() {
  static auto* v = new std::vector<gpulab::harness::DeviceVariable>();  // filled before main, used until exit
  return *v;
}

bool in(const void* p, const char* begin, const char* end) {
  const char* c = static_cast<const char*>(p);
  return begin && end && c >= begin && c < end;
}
}  // namespace

extern "C" {
void __real___cudaRegisterVar(void** handle, char* host_var, char* device_address, const char* device_name, int ext,
                              size_t size, int constant, int global);
void __wrap___cudaRegisterVar(void** handle, char* host_var, char* device_address, const char* device_name, int ext,
                              size_t size, int constant, int global) {
  {
    std::lock_guard<std::mutex> lock(variables_mutex);
    registered().push_back({host_var, size});
  }
  __real___cudaRegisterVar(handle, host_var, device_address, device_name, ext, size, constant, global);
}
}

namespace gpulab::harness {
std::vector<DeviceVariable> submission_device_variables() {
  std::lock_guard<std::mutex> lock(variables_mutex);
  std::vector<DeviceVariable> out;
  for (const DeviceVariable& v : registered()) {
    if (in(v.symbol, __start_gpulab_submission_data, __stop_gpulab_submission_data) ||
        in(v.symbol, __start_gpulab_submission_bss, __stop_gpulab_submission_bss))
      out.push_back(v);
  }
  return out;
}

bool read_device_variable(const DeviceVariable& v, std::vector<char>& out) {
  out.assign(v.bytes, 0);
  if (v.bytes == 0) return true;
  if (cudaMemcpyFromSymbol(out.data(), v.symbol, v.bytes, 0, cudaMemcpyDeviceToHost) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}

bool write_device_variable(const DeviceVariable& v, const std::vector<char>& bytes) {
  if (bytes.empty()) return true;
  if (cudaMemcpyToSymbol(v.symbol, bytes.data(), bytes.size(), 0, cudaMemcpyHostToDevice) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}
}  // namespace gpulab::harness
