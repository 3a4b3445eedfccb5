// For the grader's harness only: every copy the emulator's runtime makes for
// a program (cudaMemcpy and its Async, 2D, 3D and symbol forms, graph memcpy
// nodes) is reported to one observer before it is made, with its resolved direction, so that the harness
// can tell a result computed on the GPU from one copied in from host memory
// (grader/harness/transfer_log.hpp). A submission has no business calling
// this: the audit of its object refuses references to it.
#pragma once
#include <cstddef>

#include "gpulab/emu/runtime_types.hpp"

namespace gpulab::emu {

using CopyObserver = void (*)(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
// Replaces the observer (null: none). Not thread-safe against copies in flight: set it first.
void harness_observe_copies(CopyObserver observer);

}  // namespace gpulab::emu
