// How many bytes reach host memory while the submission's host function runs,
// so that the grader can tell a GPU result from a CPU one (DESIGN.md: "a
// result must be computed by device code"). Volume, not provenance: the host
// cannot compute the answer without the data in host memory, and whatever
// buffer the bytes came from (an input, a scratch copy of it a kernel made,
// an output), every byte that reaches host memory during the call counts.
// Two kinds of route (transfer_routes.hpp):
//   - copies into host memory, counted as they execute: every copy entry
//     point of the runtime and every graph memcpy node as its graph runs, the
//     direction taken from where the pointers point, never from the declared
//     kind (transfer_hooks_cuda.cpp and graph_copies_cuda.cpp on a GPU; on the
//     emulator its runtime reports each copy, transfer_hooks_emu.cpp);
//   - host-visible memory (managed, page-locked or mapped, registered, a host
//     memory pool): a kernel writes it and the host reads it with no copy at
//     all, so all of it that exists during the call counts, at its full size.
// Only the submission's calls are recorded, not the harness's own copies.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

namespace gpulab::harness {

// Records while alive (the harness wraps each call of the submission's function in one).
class TransferRecording {
 public:
  TransferRecording();
  ~TransferRecording();
  TransferRecording(const TransferRecording&) = delete;
  TransferRecording& operator=(const TransferRecording&) = delete;
};

// Whether a copy now is the submission's (a recording is on).
bool recording_transfers();
// `bytes` reached host memory by a copy route of transfer_routes.hpp. Thread-safe; does nothing
// unless recording.
void note_bytes_to_host(std::string_view route, unsigned long long bytes);

// Host-visible memory of a route of transfer_routes.hpp came into being (at any time: memory
// that exists when a call begins counts for that call too), or went away.
void note_host_visible_added(const void* address, unsigned long long bytes, std::string_view route);
void note_host_visible_removed(const void* address);

// After the call: the "transfers" object of result.json, {"routes": [{"route": id, "bytes": n}, ...]}
// with one entry per route that carried bytes.
nlohmann::json transfer_report();

}  // namespace gpulab::harness
