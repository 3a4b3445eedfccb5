// For the grader's harness only: every copy the emulator's runtime makes for
// a program (cudaMemcpy and its Async, 2D, 3D and symbol forms, graph memcpy
// nodes) is reported to one observer before it is made, with its resolved direction, and every
// piece of host-visible memory (managed, page-locked, registered: what a kernel writes and the host
// reads with no copy) to another as it comes and goes, so that the harness can count the bytes that
// reach host memory while a submission's function runs (grader/harness/transfer_log.hpp). A
// submission has no business calling these: the audit of its object refuses references to them.
#pragma once
#include <cstddef>

#include "gpulab/emu/runtime_types.hpp"

namespace gpulab::emu {

using CopyObserver = void (*)(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
// Replaces the observer (null: none). Not thread-safe against copies in flight: set it first.
void harness_observe_copies(CopyObserver observer);

enum class HostVisibleKind { managed, page_locked, registered };
// `exists`: the memory came into being (an allocation, a registration, the program's __managed__
// variables), or went away.
using HostVisibleObserver = void (*)(const void* address, size_t bytes, HostVisibleKind kind, bool exists);
// Replaces the observer (null: none); what exists already is reported to it at once.
void harness_observe_host_visible(HostVisibleObserver observer);

}  // namespace gpulab::emu
