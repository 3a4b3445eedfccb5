// The interface between the generic harness and the per-lab binding that
// gpulab generates from lab.json (see binding_generator): one entry per part
// that calls the submission's host function with the harness's buffers.
#pragma once
#include <cstddef>
#include <vector>

namespace gpulab::harness {

struct Call {
  std::vector<void*> pointers;   // by param index (null for size params)
  std::vector<long long> sizes;  // by param index (0 for pointer params)
  void* pointer(size_t i) const { return pointers[i]; }
  long long size(size_t i) const { return sizes[i]; }
};

struct PartBinding {
  const char* part;
  const char* signature;  // the C declaration the submission must define
  bool (*defined)();      // false when the submission does not define the function
  void (*call)(const Call&);
};

extern const PartBinding part_bindings[];
extern const size_t part_binding_count;

}  // namespace gpulab::harness
