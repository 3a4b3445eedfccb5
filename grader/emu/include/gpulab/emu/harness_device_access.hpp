// For the grader's harness only: host code may not read or write device memory in the emulator,
// as on a GPU (grader/emu/src/device_access.hpp); the harness's own checks on the emulator read
// device buffers directly (grader/harness/device_checks_emu.cpp), inside one of these scopes,
// which opens device memory to the calling thread for its life. A submission has no business
// using it: the audit of its object refuses references to gpulab::emu::harness_*.
#pragma once

namespace gpulab::emu {

class harness_device_access {
 public:
  harness_device_access();
  ~harness_device_access();
  harness_device_access(const harness_device_access&) = delete;
  harness_device_access& operator=(const harness_device_access&) = delete;

 private:
  void* access_;
};

}  // namespace gpulab::emu
