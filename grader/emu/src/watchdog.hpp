// Reports a kernel that stops making progress (a thread spinning forever, e.g.
// waiting for a value another thread of its own block must write) with the
// kernel, block and thread, instead of hanging. Progress means a block started,
// a barrier released, a warp collective completed or a thread finished or
// started (BlockRunner::progress_mark).
#pragma once

namespace gpulab::emu {
class BlockRunner;
void unwatch_runner(BlockRunner* runner);  // before it is destroyed
void watch_runner(BlockRunner* runner);
double watchdog_seconds();  // $GPULAB_EMU_WATCHDOG_SECONDS, default 10
}  // namespace gpulab::emu
