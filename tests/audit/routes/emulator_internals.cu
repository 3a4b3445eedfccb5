// Audit route (emulator only): the emulator's runtime internals. The submission takes the
// emulator's findings away before the harness reads them, reads its launch counter and declares
// and calls an internal that turns off fault recovery; the harness's reports would lie.
#include "gpulab/emu/diagnostics_api.hpp"

namespace gpulab::emu {
void set_recovery_armed(bool armed);
}

void reduce_sum_int(const int*, int* out, int) {
  gpulab::emu::set_recovery_armed(false);
  *out = static_cast<int>(gpulab::emu::take_diagnostics().size() + gpulab::emu::launch_count());
}
