// Where the bytes of transfer_log.hpp come from, per backend: on the emulator
// its runtime reports each copy to an observer (install_transfer_hooks
// registers it); on a GPU the program is linked with -Wl,--wrap for each entry
// point of copy_entry_points.hpp (transfer_hooks_cuda.cpp,
// graph_copies_cuda.cpp), so there is nothing to install at run time.
#pragma once
#include <cuda_runtime.h>

namespace gpulab::harness {
void install_transfer_hooks();
// On a GPU, a graph was launched (launch_counter_cuda.cpp's wrapper of cudaGraphLaunch): its
// memcpy nodes move their bytes now (graph_copies_cuda.cpp).
void note_graph_launch(cudaGraphExec_t exec);
}  // namespace gpulab::harness
