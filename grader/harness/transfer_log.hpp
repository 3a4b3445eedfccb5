// What the submission's host function copies between host and device memory
// while it runs, so that the grader can tell a GPU result from a CPU one
// (DESIGN.md: "a result must be computed by device code"). The copies come in
// from the CUDA runtime's copy entry points (transfer_hooks_cuda.cpp wraps
// them at link time on a GPU; on the emulator its runtime reports every copy,
// transfer_hooks_emu.cpp), only while the harness records (during the
// submission's calls, not the harness's own copies). Afterwards:
//   - an input "copied to the host": the share of its elements that reached host
//     memory, directly (device to host) or through device memory the input was
//     copied into first (device to device, a symbol);
//   - an output "copied from the host": elements whose final value is the one a
//     host-to-device copy put there, directly or through device memory it was
//     copied into first. A copy of zero bytes only (a memset by another name,
//     before a kernel accumulates) never counts.
// Memsets and kernel launches are not copies; what a kernel moves is the GPU's work.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "harness/device_buffers.hpp"

namespace gpulab::harness {

enum class CopyDirection { host_to_device, device_to_host, device_to_device, host_to_host };

// Records while alive (the harness wraps each call of the submission's function in one).
class TransferRecording {
 public:
  explicit TransferRecording(const std::vector<DeviceBuffer>& buffers);
  ~TransferRecording();
  TransferRecording(const TransferRecording&) = delete;
  TransferRecording& operator=(const TransferRecording&) = delete;
};

// Whether a copy now is the submission's (a recording is on and this thread is not the harness's own).
bool recording_transfers();
// A copy of `bytes` from `src` to `dst` in `direction`, called before it is made (so that a host
// source's bytes are read as the copy reads them). Thread-safe; does nothing unless recording.
void note_copy(void* dst, const void* src, size_t bytes, CopyDirection direction);

// After the call (outputs already read back into each buffer's `host`): the "transfers" object
// of result.json, {"inputs_to_host": [...], "outputs_from_host": [...]}.
nlohmann::json transfer_report(const std::vector<DeviceBuffer>& buffers);

}  // namespace gpulab::harness
