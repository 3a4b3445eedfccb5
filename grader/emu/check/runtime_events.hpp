// Installs the checker into the emulator (gpulab::emu::checker_hooks), so that
// it hears of launches, blocks, barriers, warp collectives, __shared__
// variables and __threadfence().
#pragma once

namespace gpulab::emu::check {

void install_checker();  // idempotent; called from __tsan_init at static initialisation

// A GPU thread executed a fence (__threadfence() or an atomic_thread_fence in the kernel).
void note_fence();

}  // namespace gpulab::emu::check
