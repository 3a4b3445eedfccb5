// Runtime API: the versions a program can ask for. The emulator stands for the CUDA 13.0
// toolkit (cudaRuntimeGetVersion) running on a driver of the same version
// (cudaDriverGetVersion), the pair the course's GPU machines have. Also peer access,
// which a single device never has.
#include "diagnostics.hpp"
#include "gpulab/emu/cuda_version.hpp"
#include "gpulab/emu/runtime_api.hpp"

using namespace gpulab::emu;

cudaError_t cudaRuntimeGetVersion(int* version) {
  if (!version) return set_last_error(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (!version) return set_last_error(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
  if (!can_access) return set_last_error(cudaErrorInvalidValue);
  if (device != 0 || peer_device != 0) return set_last_error(cudaErrorInvalidDevice);
  *can_access = 0;
  return cudaSuccess;
}
