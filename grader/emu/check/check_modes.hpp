// Which checks the checking build runs, chosen when the program starts from
// GPULAB_EMU_CHECKS, a comma-separated list of "race" (data races, bounds,
// uninitialised shared memory: `gpulab run --race-check`) and "profile"
// (memory-access counters: `gpulab run --profile`). Unset means "race".
#pragma once

namespace gpulab::emu::check {

struct CheckModes {
  bool race = true;
  bool profile = false;
};

// Set once by install_checker(), before any kernel runs; read at every access.
extern CheckModes modes;

CheckModes modes_from_environment();  // warns on stderr about words it does not know

}  // namespace gpulab::emu::check
