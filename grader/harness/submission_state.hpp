// What a fresh process would give each case of the submission's own state:
// its writable data (the object's .data and .bss, which the build puts in
// sections of their own: toolchain/state_sections.hpp), and on a GPU its
// __device__ and __constant__ variables. A snapshot is taken before the first
// case; before each later case run in the same process the snapshot is put
// back, so that a static counter, a flag set on the first call or a cached
// pointer is what it was before the first call (what the call allocated is
// freed: leftover_allocations.hpp). The snapshot may hold pointers into memory
// allocated before main (a global std::vector with elements; the CUDA
// runtime's handle of the program's kernels): putting one back is safe while
// it has not changed, and where one has (the vector grew into new memory and
// freed the old), the process ends after the case instead and the next case
// starts afresh. Heap memory reached through a pointer that did not change is
// not compared (docs/security.md, "What remains").
#pragma once
#include <string>
#include <vector>

namespace gpulab::harness {

class SubmissionState {
 public:
  // Takes the snapshot (before the first case, after the runtime has started).
  SubmissionState();
  // Whether the state can be watched at all (the build found the sections); when not, every case
  // is taken to change it.
  bool watched() const { return watched_; }
  // Why the snapshot cannot be put back now, in words ("" when it can): the state is not watched,
  // or a word that held a pointer into memory allocated before main has changed.
  std::string cannot_restore() const;
  // Puts the snapshot back, where cannot_restore() says it can.
  void restore() const;

 private:
  bool watched_ = false;
  std::vector<char> data_, bss_;
  std::vector<size_t> data_pointers_, bss_pointers_;  // offsets of words that point into dynamic memory
  std::vector<std::vector<char>> device_;             // each device variable's bytes (GPU)
};

// The submission's device variables (GPU: as nvcc registers them; the emulator keeps them in the
// object's own data): their host shadow and size. Defined per backend.
struct DeviceVariable {
  const void* symbol;
  size_t bytes;
};
std::vector<DeviceVariable> submission_device_variables();
// Reads a device variable's current bytes into `out`, or writes `bytes` into it; false when it cannot.
bool read_device_variable(const DeviceVariable& v, std::vector<char>& out);
bool write_device_variable(const DeviceVariable& v, const std::vector<char>& bytes);

}  // namespace gpulab::harness
