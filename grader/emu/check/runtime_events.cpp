// The emulator's events, as the checker sees them (see runtime_events.hpp).
// Each handler runs with tl_active cleared, so that instrumented code it might
// reach (a template instantiated in the student's file and picked by the
// linker) is not recorded as the GPU thread's own accesses.
#include "runtime_events.hpp"

#include <algorithm>

#include "check_modes.hpp"
#include "checker_hooks.hpp"
#include "host_access.hpp"
#include "launch_state.hpp"
#include "profile_store.hpp"
#include "session.hpp"

namespace gpulab::emu::check {
namespace {

// Clears tl_active for the lifetime of a handler and restores it afterwards.
class Quiet {
 public:
  Quiet() : saved_(tl_active) { tl_active = false; }
  ~Quiet() { tl_active = saved_; }
  Quiet(const Quiet&) = delete;
  Quiet& operator=(const Quiet&) = delete;

 private:
  bool saved_;
};

void launch_begin(const LaunchState& launch) {
  Quiet quiet;
  Session& s = session();
  s.launch = &launch;
  s.runner = nullptr;
  s.global.reset();
  s.findings.begin_launch();
  s.final_fences.clear();
  if (modes.race) begin_host_checks(s, launch);
  if (modes.profile) s.profiler.begin_launch();
}

void launch_end(const LaunchState& launch) {
  tl_active = false;
  Session& s = session();
  if (modes.race) s.findings.end_launch(launch, s.global.budget_exhausted(), s.global.budget_bytes());
  if (modes.profile) s.profiler.end_launch(launch);
  s.global.reset();
  s.final_fences.clear();
  s.runner = nullptr;
  s.launch = nullptr;
}

void block_begin(const BlockRunner& runner, unsigned char* shared, size_t dynamic_bytes) {
  tl_active = false;
  Session& s = session();
  s.runner = &runner;
  s.block = static_cast<uint32_t>(runner.block_linear() + 1);
  s.shared_base = reinterpret_cast<uintptr_t>(shared);
  s.shared_limit = runner.launch()->shared_limit;
  s.shared_end = dynamic_bytes;
  s.shared_regions.clear();
  if (dynamic_bytes) s.shared_regions.push_back(SharedRegion{0, dynamic_bytes, nullptr, 0});
  if (modes.race) {
    s.barrier_lines.assign(1, 0);
    s.fences.assign(runner.thread_count(), 0);
    s.block_fenced = false;
    s.warps.begin_block(runner.thread_count());
    s.shared.begin_block(s.shared_limit);
  }
  bool record = true;
  if (modes.profile) {
    if (s.profiler.samples(runner.block_linear(), runner.launch()->total_blocks)) {
      s.profiler.begin_block(runner.thread_count());
      s.profiling_block = true;
    } else {
      s.profiling_block = false;
      record = modes.race;  // an unsampled block runs without recording, unless the race check needs it
    }
  }
  tl_active = record;
}

void block_end(const BlockRunner& runner) {
  tl_active = false;
  Session& s = session();
  if (modes.profile && s.profiling_block) {
    s.profiler.end_block(s.shared_end - runner.launch()->request.dynamic_shared_bytes);
  }
  if (s.block_fenced) {
    for (size_t t = 0; t < s.fences.size(); ++t) {
      if (s.fences[t]) s.final_fences[static_cast<uint64_t>(s.block) << 16 | t] = s.fences[t];
    }
  }
  s.runner = nullptr;
}

void barrier_released(const BlockRunner& runner) {
  Quiet quiet;
  Session& s = session();
  if (modes.profile && s.profiling_block) s.profiler.flush();  // every thread's accesses before the barrier are logged
  const EmuThread* t = runner.current();
  s.barrier_lines.resize(runner.barrier_epoch() + 1, 0);
  s.barrier_lines[runner.barrier_epoch()] = t ? t->wait_line : 0;
}

void warp_synchronised(const BlockRunner&, unsigned warp, unsigned mask) {
  if (!modes.race) return;
  Quiet quiet;
  session().warps.synchronise(warp, mask);
}

void shared_allocated(const BlockRunner&, void* p, size_t bytes, const char* file, int line) {
  Quiet quiet;
  Session& s = session();
  const size_t offset = reinterpret_cast<uintptr_t>(p) - s.shared_base;
  s.shared_regions.push_back(SharedRegion{offset, bytes, file ? file : "?", line});
  s.shared_end = std::max(s.shared_end, offset + bytes);
}

void thread_fence(const BlockRunner&) {
  Quiet quiet;
  note_fence();
}

CheckerHooks hooks{launch_begin,      launch_end,       block_begin,  block_end, barrier_released,
                   warp_synchronised, shared_allocated, thread_fence, true};

}  // namespace

void install_checker() {
  modes = modes_from_environment();
  hooks.checks_host_accesses = modes.race;
  checker_hooks = &hooks;
}

void note_fence() {
  Session* s = tl_session;
  if (!s || !s->runner) return;
  const ThreadContext* t = s->runner->running_context();
  if (!t || t->linear >= s->fences.size()) return;
  ++s->fences[t->linear];
  s->block_fenced = true;
}

}  // namespace gpulab::emu::check
