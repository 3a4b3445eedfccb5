// Device memory kept out of host code's reach, as a GPU keeps it: host code that dereferences a
// pointer from cudaMalloc (and its pool, async, graph forms) faults, while kernels and the runtime's
// own copies go on. How (device_access.cpp says why): with a protection key where the CPU has
// them, per thread; elsewhere by opening the memory only while a kernel or the runtime uses it.
#pragma once
#include <cstddef>

namespace gpulab::emu {

enum class DeviceProtection {
  keys,     // a protection key: closed to host threads, open to the kernels' threads, at every moment
  toggled,  // PROT_NONE while no kernel runs and the runtime does not read or write it
  off,      // GPULAB_EMU_DEVICE_PROTECTION=off: host code may read device memory (as before)
};
DeviceProtection device_protection();
const char* device_protection_name(DeviceProtection mode);

// Opens device memory to the runtime's own reads and writes for the scope's life: on this thread
// (keys) or to the process (toggled). Nests; costs two register writes with keys.
class DeviceAccess {
 public:
  DeviceAccess();
  ~DeviceAccess();
  DeviceAccess(const DeviceAccess&) = delete;
  DeviceAccess& operator=(const DeviceAccess&) = delete;

 private:
  unsigned saved_ = 0;  // the thread's rights before (keys)
  bool opened_ = false;
};

// A thread that runs kernels (a worker, the device thread during a launch, including after a
// fault's recovery, whose signal delivery closed the key again) may read and write device memory.
void allow_device_access_on_this_thread();

// For device_memory.cpp. Protects a fresh allocation's accessible bytes (already poisoned): tags
// them with the key, or closes them unless device memory is open now (toggled). Call with the
// registry's lock held.
void protect_device_range(void* begin, size_t bytes);
// toggled: whether device memory is open now, and device_memory.cpp's note that it changed (both
// with the registry's lock held).
bool device_memory_open();
void note_device_memory_open(bool open);

}  // namespace gpulab::emu
