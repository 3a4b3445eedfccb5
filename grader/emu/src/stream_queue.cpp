// The device thread and its FIFO (see stream_queue.hpp).
#include "stream_queue.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "host_regions.hpp"
#include "stream_handles.hpp"

namespace gpulab::emu {
namespace {
thread_local bool is_device_thread = false;

struct Item {
  Ticket ticket;
  std::function<void()> work;
};

class Queue {
 public:
  Ticket push(cudaStream_t stream, std::function<void()> work) {
    std::unique_lock lock(mutex_);
    start_locked();
    const Ticket t = ++issued_;
    items_.push_back({t, std::move(work)});
    last_of_[stream] = t;
    changed_.notify_all();
    return t;
  }
  bool done(Ticket t) {
    std::unique_lock lock(mutex_);
    return completed_ >= t;
  }
  void wait(Ticket t) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return completed_ >= t; });
  }
  Ticket issued() {
    std::unique_lock lock(mutex_);
    return issued_;
  }
  Ticket last_of(cudaStream_t stream) {
    std::unique_lock lock(mutex_);
    const auto it = last_of_.find(stream);
    return it == last_of_.end() ? 0 : it->second;
  }
  void forget(cudaStream_t stream) {
    std::unique_lock lock(mutex_);
    last_of_.erase(stream);
  }

 private:
  void start_locked() {
    if (started_) return;
    started_ = true;
    std::thread device([this] {
      is_device_thread = true;
      note_runtime_thread_heap();  // what it allocates is the emulator's (host_regions.hpp)
      run();
    });
    device.detach();  // lives as long as the process; exit waits for the queue to drain (below)
  }
  void run() {
    for (;;) {
      Item item;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !items_.empty(); });
        item = std::move(items_.front());
        items_.pop_front();
      }
      item.work();
      {
        std::unique_lock lock(mutex_);
        completed_ = item.ticket;
      }
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Item> items_;
  std::map<cudaStream_t, Ticket> last_of_;
  Ticket issued_ = 0;
  Ticket completed_ = 0;
  bool started_ = false;
};

Queue& queue() {
  static Queue* q = [] {
    // A program may end without synchronising: its queued kernels still run (and print) first,
    // as a GPU finishes queued work when the context is torn down at exit.
    std::atexit([] { wait_for_all(); });
    return new Queue;  // never destroyed: the device thread may still hold it at exit
  }();
  return *q;
}
}  // namespace

Ticket enqueue(cudaStream_t stream, std::function<void()> work) {
  if (is_device_thread) {
    work();
    return 0;
  }
  return queue().push(stream, std::move(work));
}
bool is_done(Ticket ticket) { return ticket == 0 || queue().done(ticket); }
void wait_for(Ticket ticket) {
  if (ticket != 0 && !is_device_thread) queue().wait(ticket);
}
void wait_for_all() {
  if (!is_device_thread) queue().wait(queue().issued());
}
Ticket last_ticket(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy) return queue().issued();
  return queue().last_of(stream);
}
Ticket last_ticket_ordering(cudaStream_t stream) {
  const Ticket own = last_ticket(stream);
  if (stream == nullptr || stream == cudaStreamLegacy) return own;
  // A blocking stream (the per-thread default stream, or one created without cudaStreamNonBlocking)
  // also waits for the work queued before it on the legacy default stream.
  const bool blocking = stream == cudaStreamPerThread || (stream->flags & cudaStreamNonBlocking) == 0;
  if (!blocking) return own;
  return std::max({own, queue().last_of(nullptr), queue().last_of(cudaStreamLegacy)});
}
bool on_device_thread() { return is_device_thread; }
void forget_stream(cudaStream_t stream) { queue().forget(stream); }

}  // namespace gpulab::emu
