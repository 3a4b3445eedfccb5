// Stream capture: while a stream captures, the work issued to it (and to the
// streams that join its capture through events) is recorded as nodes of a
// graph instead of being queued. submit() is the one entry point for
// stream-ordered work: it records or queues.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "gpulab/emu/runtime_types.hpp"
#include "gpulab/emu/stream_types.hpp"
#include "stream_queue.hpp"

struct CUgraphNode_st {
  const char* kind;  // "kernel", "memcpy", "memset", "host", "empty"
  std::function<void()> work;
};
struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in the order added: a valid order for their dependencies
};

namespace gpulab::emu {

// Queues `work` on `stream`, or adds it to the graph `stream` is capturing (then returns 0).
Ticket submit(cudaStream_t stream, std::function<void()> work, const char* kind = "kernel");

cudaGraph_t capturing_graph(cudaStream_t stream);  // null when the stream is not capturing
void begin_capture(cudaStream_t stream, cudaGraph_t graph);
void join_capture(cudaStream_t stream, cudaGraph_t graph);  // a stream waiting on an event recorded in a capture
// What a GPU does when a capturing stream is asked for something capture cannot record (say, a
// cudaStreamSynchronize): the capture is invalidated, and ending it gives no graph.
void invalidate_capture(cudaStream_t stream);
bool capture_invalidated(cudaGraph_t graph);
// The graph; every stream that joined it stops capturing too. `invalidated`: whether the capture
// was invalidated (the caller then discards the graph).
cudaGraph_t end_capture(cudaStream_t stream, bool& invalidated);

}  // namespace gpulab::emu
