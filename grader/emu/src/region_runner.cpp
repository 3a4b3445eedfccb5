// The runtime side of the region form (gpulab/emu/thread_regions.hpp): whether a block may run as
// regions (GPULAB_EMU_REGIONS, not in the checking build, not in a cooperative launch: the block
// runner decides, block_runner.cpp), the per-worker arena of per-thread slots, and the notes that
// `gpulab run --verbose` prints about each kernel.
#include <sys/mman.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "block_runner.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/thread_regions.hpp"
#include "thread_ranks.hpp"

namespace gpulab::emu {

void device_misuse(const char* kind, const char* what, const char* file, int line);

namespace {
// Slots for one block's variables that live across barriers: at most 1024 threads, each with what
// would otherwise be on its 64 KiB fiber stack, fit twice over. Reserved, not committed: only the
// pages a kernel uses are ever touched.
constexpr std::size_t kArenaBytes = std::size_t{128} << 20;

RegionArena& worker_arena() {
  static thread_local RegionArena arena;
  if (!arena.base) {
    void* p = mmap(nullptr, kArenaBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      arena.base = static_cast<unsigned char*>(p);
      arena.capacity = kArenaBytes;
    }
  }
  return arena;
}

std::atomic<unsigned long long> blocks_run{0};

bool verbose() {
  const char* v = std::getenv("GPULAB_EMU_VERBOSE");
  return v && *v && std::strcmp(v, "0") != 0;
}
}  // namespace

bool regions_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("GPULAB_EMU_REGIONS");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  return enabled;
}

void BlockRunner::begin_regions() {
  region_gate_ = false;
  in_regions_ = true;
}

void BlockRunner::end_regions() {
  regions_done_ = true;
  if (active_sweep_) active_sweep_->waited = true;  // the sweep's loop stops after this call
}

void BlockRunner::region_barrier() {
  ++barrier_epoch_;
  bump_progress();
}

const ThreadContext* BlockRunner::region_report_context() const {
  region_report_context_ = context_of_rank(sweep_context_.linear, launch_->request.block);
  return &region_report_context_;
}

void BlockRunner::regions_misused() {
  in_regions_ = false;
  Diagnostic d;
  d.kind = "internal";
  d.severity = "error";
  d.kernel = launch_->request.kernel_name;
  d.block = block_label();
  d.message = "the emulator ran " + launch_->where() +
              " as regions between barriers, and a thread reached a "
              "barrier or warp collective that the region form did not expect. This is a bug of the emulator: "
              "run with GPULAB_EMU_REGIONS=0 and report the kernel.";
  report(std::move(d), cudaErrorLaunchFailure);
  abort_block();
}

bool RegionBlock::begin(bool warps) {
  BlockRunner* r = running_block_runner();
  if (!r || !r->may_run_regions()) return false;
  if (warps && r->thread_count() % 32 != 0) return false;  // a partial warp: its fibers say what it does
  RegionArena& arena = worker_arena();
  if (!arena.base) return false;  // no slots to be had: the block's threads run one fiber each
  r->begin_regions();
  arena.top = 0;
  arena_ = &arena;
  context_ = r->region_context();
  const dim3 b = r->launch()->request.block;
  dim = ::dim3{b.x, b.y, b.z};
  threads_ = r->thread_count();
  active_ = true;
  blocks_run.fetch_add(1, std::memory_order_relaxed);
  return true;
}

unsigned long long region_blocks_run() { return blocks_run.load(std::memory_order_relaxed); }

void RegionBlock::finish() {
  active_ = false;
  if (BlockRunner* r = running_block_runner()) r->end_regions();
}

void RegionBlock::barrier() {
  if (BlockRunner* r = running_block_runner()) r->region_barrier();
}

void region_storage_exhausted(std::size_t wanted, std::size_t capacity) {
  device_misuse("stack-overflow",
                ("the block's variables that live across barriers need " + std::to_string(wanted) +
                 " bytes, more than the " + std::to_string(capacity) +
                 " the emulator keeps for them (a GPU thread's local arrays must fit in its 64 KiB stack); keep "
                 "large arrays in shared or global memory")
                    .c_str(),
                "", 0);
  std::abort();  // device_misuse ends the block; it does not come back here
}

region_note::region_note(const char* kernel, const char* file, int line, int kind, const char* reason) {
  if (!verbose()) return;
  std::string how = reason;
  if (kind == 1 && !regions_enabled()) how += " (turned off: GPULAB_EMU_REGIONS=0, one fiber per thread)";
  if (kind == 2) how = "one fiber per thread: " + how;
  std::fprintf(stderr, "gpulab: kernel '%s' (%s:%d): %s\n", kernel, file, line, how.c_str());
}

}  // namespace gpulab::emu
