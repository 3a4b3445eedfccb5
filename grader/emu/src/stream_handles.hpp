// What a cudaStream_t and a cudaEvent_t point to on the emulator.
#pragma once
#include <chrono>

#include "gpulab/emu/runtime_types.hpp"
#include "gpulab/emu/stream_types.hpp"
#include "stream_queue.hpp"

struct CUstream_st {
  unsigned flags;
  cudaAccessPolicyWindow window{};  // remembered for cudaStreamGetAttribute; the emulator has no L2
  int priority = 0;                 // remembered for cudaStreamGetPriority; all streams share one queue
};
struct CUevent_st {
  unsigned flags;
  bool recorded = false;                         // cudaEventRecord was called (the record may still be queued)
  gpulab::emu::Ticket ticket = 0;                // the queued record; done once the work before it is done
  std::chrono::steady_clock::time_point when{};  // set by the device thread when the record runs
  cudaGraph_t captured_in = nullptr;             // recorded in a capturing stream: waiting on it joins the capture
};
