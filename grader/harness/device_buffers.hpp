// The harness's device buffers: one per pointer parameter of a part, with
// guard zones on a GPU (the emulator has its own, which also name the thread),
// inputs uploaded, outputs poisoned (NaN for floats, all bits set for
// integers) or zeroed as lab.json says, and the checks made after a call:
// modified inputs, overruns into the guard zones.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/nd_array.hpp"

namespace gpulab::harness {

struct DeviceBuffer {
  std::string name;
  std::string role;               // "input" or "output"
  bool zero_initial = false;      // output: arrives zeroed instead of poisoned
  unsigned char* base = nullptr;  // allocation start (guard zone first)
  unsigned char* data = nullptr;  // what the submission gets
  size_t bytes = 0;
  size_t guard = 0;  // bytes of guard zone on each side
  NdArray host;      // input values, or output shape/dtype (then the output values)
};

// Allocates and fills the buffer for one pointer parameter of the request; empty string on success.
// Without guard zones (under compute-sanitizer, whose memcheck must see the allocation's real end).
std::string allocate_buffer(DeviceBuffer& b, bool guard_zones = true);
void reset_output(const DeviceBuffer& b);                   // poison or zero again
std::string upload_input(DeviceBuffer& b, NdArray values);  // replace an input's values (same shape)
// After a call: copies outputs into b.host, reports modified inputs and guard overruns into `result`.
void inspect_after_call(std::vector<DeviceBuffer>& buffers, nlohmann::json& result);
void free_buffers(std::vector<DeviceBuffer>& buffers);

}  // namespace gpulab::harness
