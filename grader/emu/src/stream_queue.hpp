// The emulated device's work queue: kernel launches, asynchronous copies and
// memsets, event records and host functions are queued in the order the host
// issues them and run, one after another, on one device thread, while the host
// runs on — as on a GPU, where a launch returns before the kernel has run.
// One queue for every stream keeps each stream's order, and the order between
// streams that events and the legacy default stream impose (running streams
// one after another is a schedule a GPU may also choose). Synchronising calls
// wait for the work they cover; each stream remembers its last queued ticket.
#pragma once
#include <cstdint>
#include <functional>

#include "gpulab/emu/runtime_types.hpp"

namespace gpulab::emu {

using Ticket = std::uint64_t;  // position in the queue; 0 = nothing

// Queues `work` for `stream` and returns its ticket. From a host function or
// callback running on the device thread, `work` runs at once instead (CUDA
// forbids runtime calls there; the emulator need not deadlock on them).
Ticket enqueue(cudaStream_t stream, std::function<void()> work);

bool is_done(Ticket ticket);
void wait_for(Ticket ticket);
void wait_for_all();                      // every queued piece of work
Ticket last_ticket(cudaStream_t stream);  // the stream's last queued work (the legacy stream: everything)
// What work on `stream` must follow: its own last work and, for a blocking stream, the legacy default
// stream's (a copy made at once from pageable memory waits for it, as CUDA orders it after them).
Ticket last_ticket_ordering(cudaStream_t stream);
bool on_device_thread();

// Per-stream bookkeeping kept by the queue: dropped when the stream is destroyed.
void forget_stream(cudaStream_t stream);

}  // namespace gpulab::emu
