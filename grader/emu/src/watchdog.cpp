// The watchdog thread.
#include "watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "block_runner.hpp"
#include "diagnostics.hpp"

namespace gpulab::emu {
namespace {
struct Watched {
  BlockRunner* runner;
  unsigned long long last = 0;
  std::chrono::steady_clock::time_point since{};
};
std::mutex watch_mutex;
std::vector<Watched>& watched() {
  static auto* v = new std::vector<Watched>();
  return *v;
}

[[noreturn]] void fire(const Watched& w, double seconds) {
  const LaunchState* launch = w.runner->launch();
  Diagnostic d;
  d.kind = "watchdog";
  d.severity = "error";
  if (launch) {
    d.kernel = launch->request.kernel_name;
    d.file = launch->request.file;
    d.line = launch->request.line;
  }
  d.block = w.runner->block_label();
  d.threads = w.runner->running_thread_label();
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.0f", seconds);
  d.message = std::string("no progress for ") + secs + " s in " + (launch ? launch->where() : std::string("a kernel")) +
              ", block " + d.block + ", thread " + d.threads +
              ": the thread neither finished nor reached a barrier. Look for an endless loop, or a thread waiting "
              "for a value that another thread of the same block has not written yet (the emulator runs a "
              "block's threads one at a time between barriers). Set GPULAB_EMU_WATCHDOG_SECONDS to wait longer.";
  report(std::move(d), cudaErrorLaunchTimeout);
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(124);
}

void watch_loop() {
  const double limit = watchdog_seconds();
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(watch_mutex);
    for (Watched& w : watched()) {
      const unsigned long long p = w.runner->progress_mark();
      if (p != w.last || w.runner->launch() == nullptr) {
        w.last = p;
        w.since = now;
      } else if (std::chrono::duration<double>(now - w.since).count() > limit) {
        fire(w, limit);
      }
    }
  }
}
}  // namespace

double watchdog_seconds() {
  static const double s = [] {
    if (const char* env = std::getenv("GPULAB_EMU_WATCHDOG_SECONDS")) {
      const double v = std::atof(env);
      if (v > 0) return v;
    }
    return 10.0;
  }();
  return s;
}

void watch_runner(BlockRunner* runner) {
  static std::once_flag started;
  std::call_once(started, [] { std::thread(watch_loop).detach(); });
  std::lock_guard<std::mutex> lock(watch_mutex);
  watched().push_back(Watched{runner, runner->progress_mark(), std::chrono::steady_clock::now()});
}

void unwatch_runner(BlockRunner* runner) {
  std::lock_guard<std::mutex> lock(watch_mutex);
  auto& v = watched();
  v.erase(std::remove_if(v.begin(), v.end(), [runner](const Watched& w) { return w.runner == runner; }), v.end());
}

}  // namespace gpulab::emu
