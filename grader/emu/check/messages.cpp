// Wording of the checker's reports (see messages.hpp).
#include "messages.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "code_location.hpp"
#include "launch_state.hpp"

namespace gpulab::emu::check {
namespace {

std::string thread_label(const Session& s, uint16_t thread) {
  const dim3 b = s.launch->context.block_dim;
  return format_index(thread % b.x, (thread / b.x) % b.y, thread / (b.x * b.y));
}

std::string block_label(const Session& s, uint32_t block_plus_one) {
  const dim3 g = s.launch->context.grid_dim;
  const unsigned long long linear = block_plus_one - 1ull;
  return format_index(static_cast<unsigned>(linear % g.x), static_cast<unsigned>((linear / g.x) % g.y),
                      static_cast<unsigned>(linear / (1ull * g.x * g.y)));
}

std::string who(const Session& s, uint32_t block_plus_one, uint16_t thread) {
  return "thread " + thread_label(s, thread) + " of block " + block_label(s, block_plus_one);
}

std::string element_note(long long offset, size_t size) {
  if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16) return "";
  if (offset % static_cast<long long>(size) != 0) return "";
  return " (element " + std::to_string(offset / static_cast<long long>(size)) + " of " + std::to_string(size) +
         "-byte elements)";
}

// "the __shared__ variable declared at f.cu:12, byte offset 40" / "global memory, byte offset ..."
std::string memory(Session& s, uintptr_t address, size_t size, bool shared) {
  if (shared) {
    const size_t offset = address - s.shared_base;
    const SharedRegion* r = s.shared_region(offset);
    if (!r) return "shared memory at byte offset " + std::to_string(offset) + " of the block's shared memory";
    const long long within = static_cast<long long>(offset - r->begin);
    if (!r->file)
      return "dynamic shared memory (extern __shared__), byte offset " + std::to_string(within) +
             element_note(within, size);
    return "the __shared__ variable declared at " + std::string(r->file) + ":" + std::to_string(r->line) +
           ", byte offset " + std::to_string(within) + element_note(within, size);
  }
  const DeviceAllocation* a = s.global.allocation(address);
  if (!a) return "global memory";
  const long long offset = static_cast<long long>(address - a->begin);
  return "global memory, byte offset " + std::to_string(offset) + element_note(offset, size) + " of the " +
         std::to_string(a->size) + "-byte allocation made by " + a->api + " at " + a->origin;
}

std::string verb(uint8_t flags, bool past) {
  if (flags & kUpdate) return past ? "atomically updated" : "atomically updates";
  if (flags & kAtomic)
    return (flags & kWrite) ? (past ? "atomically wrote" : "atomically writes")
                            : (past ? "atomically read" : "atomically reads");
  std::string v = (flags & kWrite) ? (past ? "wrote" : "writes") : (past ? "read" : "reads");
  return (flags & kVolatile) ? v + " (through a volatile pointer)" : v;
}

std::string interval(const Session& s, uint32_t epoch) {
  if (epoch == 0 || epoch >= s.barrier_lines.size()) return "before the block's first __syncthreads()";
  return "after the __syncthreads() on line " + std::to_string(s.barrier_lines[epoch]);
}

Diagnostic base(const Session& s, const char* kind, uint32_t block_plus_one) {
  Diagnostic d;
  d.kind = kind;
  d.severity = "error";
  d.kernel = s.launch->request.kernel_name;
  d.file = s.launch->request.file;
  d.line = s.launch->request.line;
  d.block = block_label(s, block_plus_one);
  return d;
}

}  // namespace

void report_race(Session& s, uintptr_t address, size_t size, bool shared, const Access& earlier, const Access& later) {
  Diagnostic d = base(s, "data-race", later.block);
  d.threads = thread_label(s, later.thread) + ", " + thread_label(s, earlier.thread);
  std::string why;
  if (earlier.block != later.block) {
    d.block += ", " + block_label(s, earlier.block);
    why =
        "Threads of different blocks run in no fixed order: only atomics (atomicAdd, ...), or a "
        "__threadfence() after the write followed by a flag the other block waits for, order them. Use "
        "atomicAdd for counters that many blocks update, or give each block its own part of the output.";
  } else {
    if (earlier.thread / 32 == later.thread / 32) {
      why = "Both threads are in warp " + std::to_string(later.thread / 32) +
            " and both accesses are in the "
            "same barrier interval (" +
            interval(s, later.epoch) +
            ") with no __syncwarp() or other warp "
            "collective between them; since Volta the lanes of a warp do not run in lockstep (and volatile "
            "does not order them either). ";
    } else {
      why = "Both accesses are in the same barrier interval (" + interval(s, later.epoch) +
            "), and only "
            "__syncthreads() orders the threads of a block. ";
    }
    why +=
        "If many threads update the same element, use atomicAdd (or give each thread its own element); if "
        "one thread writes what another reads, put a barrier (__syncthreads(), or __syncwarp() within a "
        "warp) between the write and the read, in a loop also between one step's reads and the next "
        "step's writes.";
  }
  d.message = "data race in " + s.launch->where() + ": " + who(s, later.block, later.thread) + " " +
              verb(later.flags, false) + " " + memory(s, address, size, shared) + ", which " +
              who(s, earlier.block, earlier.thread) + " " + verb(earlier.flags, true) +
              " before, and nothing orders the two accesses. " + why;
  s.findings.emit(std::move(d));
}

void report_out_of_bounds(Session& s, uintptr_t address, size_t size, bool write, const DeviceAllocation* allocation,
                          uint16_t thread) {
  Diagnostic d = base(s, write ? "out-of-bounds" : "out-of-bounds-read", s.block);
  d.threads = thread_label(s, thread);
  const std::string access = who(s, s.block, thread) + (write ? " writes " : " reads ") + std::to_string(size) +
                             (size == 1 ? " byte" : " bytes");
  if (!allocation) {
    const size_t offset = address - s.shared_base;
    d.message = "out-of-bounds " + std::string(write ? "write" : "read") + " of shared memory in " + s.launch->where() +
                ": " + access + " at byte offset " + std::to_string(offset) +
                " of the block's shared memory, past the " + std::to_string(s.shared_end) +
                " bytes its __shared__ variables and dynamic shared memory (" +
                std::to_string(s.launch->request.dynamic_shared_bytes) +
                " bytes, the third <<<>>> argument) occupy. Check the index against the array's size.";
  } else {
    const long long offset = static_cast<long long>(address) - static_cast<long long>(allocation->begin);
    const long long size_ll = static_cast<long long>(allocation->size);
    const std::string where =
        offset < 0 ? std::to_string(-offset) + " bytes before its start"
                   : std::to_string(offset + static_cast<long long>(size) - size_ll) + " bytes past its end";
    d.message = "out-of-bounds " + std::string(write ? "write" : "read") + " in " + s.launch->where() + ": " + access +
                " at byte offset " + std::to_string(offset) + element_note(offset, size) + " of the " +
                std::to_string(allocation->size) + "-byte allocation made by " + allocation->api + " at " +
                allocation->origin + ", " + where + ". Check the bounds test (e.g. `if (i < n)`) before every " +
                "access, including neighbours like in[i + 1].";
  }
  s.findings.emit(std::move(d));
}

void report_host_access(Session& s, uintptr_t address, size_t size, bool write, HostRegion region, uint16_t thread,
                        uintptr_t pc) {
  Diagnostic d = base(s, "illegal-address", s.block);
  d.threads = thread_label(s, thread);
  const std::string line = code_location(pc);
  if (const size_t colon = line.rfind(':'); colon != std::string::npos && line.rfind("in ", 0) != 0) {
    d.file = line.substr(0, colon);
    d.line = std::atoi(line.c_str() + colon + 1);
  }
  char at[32];
  std::snprintf(at, sizeof at, "%#lx", static_cast<unsigned long>(address));
  d.message = std::string("illegal address: in ") + s.launch->where() + ", " + who(s, s.block, thread) +
              (write ? " writes " : " reads ") + std::to_string(size) + (size == 1 ? " byte" : " bytes") + " of " +
              host_region_words(region) + " (" + at + ")" +
              (line.empty() ? std::string() : (line.rfind("in ", 0) == 0 ? " " : " at ") + line) +
              ", which a GPU cannot reach: on a GPU the kernel fails there with cudaErrorIllegalAddress. Pass the "
              "kernel device memory (cudaMalloc, then cudaMemcpy the data in), or memory both sides reach "
              "(cudaMallocManaged, cudaMallocHost).";
  report(std::move(d), cudaErrorIllegalAddress);
}

void report_uninitialised(Session& s, uintptr_t address, size_t size, uint16_t thread) {
  Diagnostic d = base(s, "uninitialised-shared-read", s.block);
  d.threads = thread_label(s, thread);
  d.message = "read of uninitialised shared memory in " + s.launch->where() + ": " + who(s, s.block, thread) +
              " reads " + memory(s, address, size, true) + " before any thread of the block wrote it. Shared " +
              "memory holds garbage when a block starts; write it (then __syncthreads()) before reading it.";
  s.findings.emit(std::move(d));
}

}  // namespace gpulab::emu::check
