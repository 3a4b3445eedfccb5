// Runtime API: streams, events and stream-ordered host work, over the device
// queue (stream_queue.hpp) and stream capture (stream_capture.hpp). Kernels
// run on the device thread while the host runs on; these calls wait for, or
// ask about, the work queued before them.
#include <cstring>

#include "device_memory.hpp"
#include "device_printf.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "stream_capture.hpp"
#include "stream_handles.hpp"
#include "stream_queue.hpp"

using namespace gpulab::emu;

namespace {
bool is_special(cudaStream_t s) { return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread; }

// A synchronising call: waits for `ticket`, shows the kernels' printf output, returns the sticky error.
cudaError_t wait_and_collect(Ticket ticket) {
  wait_for(ticket);
  flush_device_output();
  return synchronize_errors();
}
}  // namespace

cudaError_t cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int flags) {
  if (!s) return set_last_error(cudaErrorInvalidValue);
  *s = new CUstream_st{flags, {}};
  return cudaSuccess;
}
namespace {
constexpr int kLeastPriority = 0, kGreatestPriority = -5;  // an H100's (CUDA 13)
}  // namespace
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = kLeastPriority;
  if (greatest) *greatest = kGreatestPriority;
  return cudaSuccess;
}
// As CUDA does, a priority outside the range is clamped to it.
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned int flags, int priority) {
  const cudaError_t e = cudaStreamCreateWithFlags(s, flags);
  if (e != cudaSuccess) return e;
  (*s)->priority = priority > kLeastPriority      ? kLeastPriority
                   : priority < kGreatestPriority ? kGreatestPriority
                                                  : priority;
  return cudaSuccess;
}
cudaError_t cudaStreamGetPriority(cudaStream_t s, int* priority) {
  if (!priority) return set_last_error(cudaErrorInvalidValue);
  *priority = s && !is_special(s) ? s->priority : 0;
  return cudaSuccess;
}
cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int* flags) {
  if (!flags) return set_last_error(cudaErrorInvalidValue);
  *flags = s && !is_special(s) ? s->flags : cudaStreamDefault;
  return cudaSuccess;
}
// As on a GPU, work already queued on the stream still runs after it is destroyed.
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (!s) return set_last_error(cudaErrorInvalidResourceHandle);
  if (is_special(s)) return cudaSuccess;
  forget_stream(s);
  delete s;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  if (capturing_graph(s)) {
    invalidate_capture(s);  // as on a GPU: the capture cannot be ended into a graph now
    return set_last_error(cudaErrorStreamCaptureUnsupported);
  }
  return wait_and_collect(last_ticket(s));
}
cudaError_t cudaStreamQuery(cudaStream_t s) {
  if (!is_done(last_ticket(s))) return cudaErrorNotReady;
  return synchronize_errors();
}
// One queue runs every stream's work in issue order, so an event recorded before this call
// has completed before anything queued after it: waiting needs no work, except in a capture.
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int) {
  if (!e) return set_last_error(cudaErrorInvalidResourceHandle);
  if (e->captured_in && !capturing_graph(s)) join_capture(s, e->captured_in);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int flags) {
  if (!e) return set_last_error(cudaErrorInvalidValue);
  *e = new CUevent_st{flags};
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  if (!e) return set_last_error(cudaErrorInvalidResourceHandle);
  wait_for(e->ticket);  // its queued record still writes to it
  delete e;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  if (!e) return set_last_error(cudaErrorInvalidResourceHandle);
  if (const cudaGraph_t graph = capturing_graph(s)) {
    e->captured_in = graph;  // an edge of the graph, not a node
    return cudaSuccess;
  }
  wait_for(e->ticket);  // re-recording: the earlier record has run before this one is queued
  e->recorded = true;
  e->captured_in = nullptr;
  e->ticket = enqueue(s, [e] { e->when = std::chrono::steady_clock::now(); });
  if (e->ticket == 0) e->when = std::chrono::steady_clock::now();  // recorded from a host function
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  if (!e) return set_last_error(cudaErrorInvalidResourceHandle);
  return wait_and_collect(e->ticket);
}
cudaError_t cudaEventQuery(cudaEvent_t e) {
  if (!e) return set_last_error(cudaErrorInvalidResourceHandle);
  return is_done(e->ticket) ? cudaSuccess : cudaErrorNotReady;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms || !start || !end) return set_last_error(!ms ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
  if ((start->flags | end->flags) & cudaEventDisableTiming) return set_last_error(cudaErrorInvalidResourceHandle);
  if (!start->recorded || !end->recorded) return set_last_error(cudaErrorInvalidResourceHandle);
  if (!is_done(start->ticket) || !is_done(end->ticket)) return set_last_error(cudaErrorNotReady);
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return cudaSuccess;
}

// Host functions and callbacks run on the device thread once the work before them is done.
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void* user) {
  if (!fn) return set_last_error(cudaErrorInvalidValue);
  submit(
      s,
      [fn, user] {
        fn(user);
        note_memory_written();  // a host function may write what kernels read
      },
      "host");
  return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t callback, void* user, unsigned int flags) {
  if (!callback || flags != 0) return set_last_error(cudaErrorInvalidValue);
  if (capturing_graph(s)) {
    invalidate_capture(s);
    return set_last_error(cudaErrorStreamCaptureUnsupported);
  }
  enqueue(s, [s, callback, user] {
    callback(s, sticky_error(), user);
    note_memory_written();
  });
  return cudaSuccess;
}
