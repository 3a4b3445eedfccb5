// A small fork-join pool of persistent threads.
#include "worker_pool.hpp"

#include "device_access.hpp"
#include "host_regions.hpp"
#include "platform/cpu_count.hpp"

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

namespace gpulab::emu {
namespace {
struct Pool {
  std::mutex mutex;
  std::condition_variable start_cv, done_cv;
  const std::function<void(unsigned)>* work = nullptr;
  unsigned long long round = 0;
  unsigned pending = 0;
  std::vector<std::thread> threads;

  explicit Pool(unsigned helpers) {
    for (unsigned i = 0; i < helpers; ++i) {
      threads.emplace_back([this, i] { loop(i + 1); });
      threads.back().detach();
    }
  }
  void loop(unsigned index) {
    allow_device_access_on_this_thread();  // these threads only ever run kernels and replays
    note_runtime_thread_heap();            // what they allocate is the emulator's (host_regions.hpp)
    unsigned long long seen = 0;
    for (;;) {
      const std::function<void(unsigned)>* w;
      {
        std::unique_lock<std::mutex> lock(mutex);
        start_cv.wait(lock, [&] { return round != seen; });
        seen = round;
        w = work;
      }
      (*w)(index);
      std::lock_guard<std::mutex> lock(mutex);
      if (--pending == 0) done_cv.notify_all();
    }
  }
};
Pool& pool() {
  static Pool* p = new Pool(worker_count() - 1);  // detached threads live until exit
  return *p;
}
}  // namespace

unsigned worker_count() {
  static const unsigned n = [] {
    if (const char* env = std::getenv("GPULAB_EMU_WORKERS")) {
      const int v = std::atoi(env);
      if (v >= 1 && v <= 256) return static_cast<unsigned>(v);
    }
    return platform::usable_cpus();  // the CPUs this process may use (taskset, Slurm, cgroups)
  }();
  return n;
}

void run_on_workers(const std::function<void(unsigned)>& work) {
  if (worker_count() == 1) {
    work(0);
    return;
  }
  Pool& p = pool();
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    p.work = &work;
    p.pending = worker_count() - 1;
    ++p.round;
  }
  p.start_cv.notify_all();
  work(0);
  std::unique_lock<std::mutex> lock(p.mutex);
  p.done_cv.wait(lock, [&] { return p.pending == 0; });
}

}  // namespace gpulab::emu
