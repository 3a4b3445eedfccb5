// What the runtime API needs of the device heap (device_heap.cpp): whether a
// kernel has allocated from it (a GPU then refuses to change its size), and
// dropping it at cudaDeviceReset.
#pragma once

namespace gpulab::emu {

bool device_heap_in_use();  // a kernel has called malloc since the start or the last reset
void reset_device_heap();   // forgets every piece: what kernels kept is gone, as after a GPU's reset

}  // namespace gpulab::emu
