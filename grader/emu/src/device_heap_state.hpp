// What the runtime API needs of the device heap (device_heap.cpp): whether a
// kernel has allocated from it (a GPU then refuses to change its size),
// dropping it at cudaDeviceReset, and where it is (device memory for a launch's arguments).
#pragma once

namespace gpulab::emu {

bool device_heap_in_use();             // a kernel has called malloc since the start or the last reset
void reset_device_heap();              // forgets every piece: what kernels kept is gone, as after a GPU's reset
bool device_heap_owns(const void* p);  // p lies in the device heap (memory kernels got from malloc)

}  // namespace gpulab::emu
