// Device allocations: each cudaMalloc gets its own mapping with inaccessible
// guard pages on both sides (an access far out of bounds faults at once) and a
// guard pattern in the slack bytes next to the allocation (checked after every
// kernel). Fresh device memory is poisoned with 0xFF bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpulab::emu {

struct Allocation {
  uintptr_t begin = 0;
  size_t size = 0;
  std::string origin;  // "file.cu:12"
  const char* api = "cudaMalloc";
};

struct GuardViolation {
  Allocation allocation;
  long long first_offset;  // relative to begin: negative before, >= size after
  long long last_offset;
};

// How an address relates to the live allocations.
struct AddressInfo {
  enum class Kind { inside, before, after, unknown } kind = Kind::unknown;
  Allocation allocation;
  long long offset = 0;         // address - begin
  bool host_protected = false;  // the allocation is kept from host code (all but managed memory)
};

void* device_allocate(size_t size, const char* api, const char* file, int line);
bool device_free(void* ptr);  // false if ptr is not the start of a live allocation
void free_all_device_memory();
std::optional<Allocation> find_allocation(const void* ptr);
// Whether [ptr, ptr+bytes) lies inside one live allocation; a message saying why not otherwise.
std::string check_device_range(const void* ptr, size_t bytes, const char* what);
AddressInfo classify_address(const void* address);  // async-signal-tolerant best effort
// The same, waiting up to `tries` milliseconds for the registry (a host fault: the process ends).
AddressInfo classify_address(const void* address, int tries);
// The same, waiting for the registry; unlike find_allocation, no note that memory may change
// (what a launch's argument check and cudaPointerGetAttributes ask).
AddressInfo lookup_address(const void* address);
std::vector<GuardViolation> check_guards();  // and restores the pattern
size_t device_bytes_in_use();
bool is_managed_api(const char* api);  // the allocation stays host-accessible, as on a GPU
// toggled protection (device_access.hpp): opens or closes every host-protected allocation.
void set_device_memory_open(bool open);
std::vector<Allocation> live_allocations();  // in address order

// A count of the runtime's own (possible) writes to device memory: copies, memsets, graph memory
// nodes, host functions, allocations, and every lookup of a device address (find_allocation,
// check_device_range), which each runtime call that reads or writes device memory makes first. A
// launch replay (launch_replay.hpp) trusts what it knows of device-only memory only while it holds.
void note_memory_written();
unsigned long long memory_write_epoch();

}  // namespace gpulab::emu
