// Host memory a GPU cannot reach: the program's pageable memory, where a kernel's access fails with
// cudaErrorIllegalAddress on a GPU without HMM (an H200 with CUDA 13 has none: recorded on the device
// machine). In the emulator every byte is the host's, so this says which bytes a kernel may
// not touch: memory from malloc or new, a host thread's stack, a host variable (not a __device__,
// __constant__ or __managed__ one), a mapped file. Not: device, managed, page-locked or registered
// memory, the device heap, a device variable the program named to the runtime.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab::emu {

enum class HostRegion { none, heap, anonymous, stack, variable, mapped_file };

// The emulator's own threads (the device thread that runs streams, the workers that run blocks) make
// its per-thread objects (the tables of asynchronous copies, barriers' state) on the malloc heap of
// their own arena, which glibc gives each thread apart from the program's (the main thread's
// [heap]). Each such thread notes its arena when it starts; what lies there is the emulator's, and
// so is what runtime_memory() hands out (gpulab/emu/runtime_memory.hpp: the objects its headers
// build inside kernels, which would share the program's arena where malloc has too few).
void note_runtime_thread_heap();
bool in_runtime_thread_heap(uintptr_t a);

// "memory from malloc or new", ...: what the student reads.
const char* host_region_words(HostRegion region);

// The process's mappings, read once from /proc/self/maps (Linux; empty elsewhere), for looking many
// addresses up: a launch's arguments, or a checked launch's accesses.
class HostMemoryMap {
 public:
  void read();
  // Which kind of host mapping holds `a` (variable: a segment of the program or a library it
  // loaded, __device__ variables included; heap: [heap]; anonymous: large malloc blocks, other
  // threads' stacks; stack: the main thread's; mapped_file), or none when no mapping holds it.
  HostRegion region_of(uintptr_t a) const;
  // The [begin, end) of the mapping holding `a`, or {0, 0}.
  std::pair<uintptr_t, uintptr_t> mapping_of(uintptr_t a) const;

 private:
  struct Mapping {
    uintptr_t begin, end;
    HostRegion region;
  };
  std::vector<Mapping> mappings_;                          // in address order
  std::vector<std::pair<uintptr_t, uintptr_t>> segments_;  // the loaded objects' segments, in order
};

// Whether `a` lies in a segment of the program or a library it loaded (code, constants, variables).
bool in_loaded_image(uintptr_t a);
// Whether `a` lies in a __managed__ variable (qualifiers.hpp puts them in a section of their own).
bool in_managed_variables(uintptr_t a);

// Whether a kernel may touch `p`: null and nearly null (its own fault says so), device, managed,
// page-locked and registered memory, the device heap, a device or __managed__ variable.
bool gpu_reachable(const void* p);
// The region of host memory a GPU cannot reach that holds `p` (which is not gpu_reachable), or none
// when no mapping holds it. `map` is read only when the loaded objects do not hold `p`.
HostRegion unreachable_host_region(const void* p, HostMemoryMap& map, bool& map_read);

}  // namespace gpulab::emu
