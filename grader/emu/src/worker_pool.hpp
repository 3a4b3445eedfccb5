// The CPU threads that run blocks: the launching thread plus (workers - 1)
// persistent helpers. Blocks are handed out in launch order, and each worker
// runs its block to completion before taking the next, so a block may wait for
// an earlier block (decoupled look-back) and still make progress.
#pragma once
#include <functional>

namespace gpulab::emu {

unsigned worker_count();  // $GPULAB_EMU_WORKERS, else the number of cores
// Runs `work(worker_index)` on every worker, the caller being worker 0; returns when all are done.
void run_on_workers(const std::function<void(unsigned)>& work);

}  // namespace gpulab::emu
