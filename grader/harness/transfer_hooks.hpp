// Where the copies of transfer_log.hpp come from, per backend: on the emulator
// its runtime reports each copy to an observer (install_transfer_hooks
// registers it); on a GPU the program is linked with -Wl,--wrap for each copy
// entry point of the CUDA runtime (transfer_hooks_cuda.cpp), so there is
// nothing to install at run time.
#pragma once

namespace gpulab::harness {
void install_transfer_hooks();
}
