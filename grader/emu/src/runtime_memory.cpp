// The emulator's own memory for objects its headers build inside kernels (gpulab/emu/
// runtime_memory.hpp): the standard library's synchronized pool over mappings made here, each
// mapping noted so that the checking build can tell them from the program's memory.
#include "gpulab/emu/runtime_memory.hpp"

#include <sys/mman.h>

#include <map>
#include <mutex>
#include <new>

namespace gpulab::emu {
namespace {

class MappedMemory final : public std::pmr::memory_resource {
 public:
  bool holds(std::uintptr_t a) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = ranges_.upper_bound(a);
    if (it == ranges_.begin()) return false;
    --it;
    return a < it->first + it->second;
  }

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    if (alignment > kPage) throw std::bad_alloc();
    const std::size_t length = (bytes + kPage - 1) / kPage * kPage;
    void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    std::lock_guard<std::mutex> lock(mutex_);
    ranges_[reinterpret_cast<std::uintptr_t>(p)] = length;
    return p;
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t) override {
    const std::size_t length = (bytes + kPage - 1) / kPage * kPage;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ranges_.erase(reinterpret_cast<std::uintptr_t>(p));
    }
    munmap(p, length);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  static constexpr std::size_t kPage = 4096;
  std::mutex mutex_;
  std::map<std::uintptr_t, std::size_t> ranges_;  // start -> length
};

// Built in static storage (a kernel's code reads the pool object itself, and static storage is
// not heap memory) and never destroyed: worker threads' objects may outlive main.
template <class T, class... Args> T* never_destroyed(Args... args) {
  alignas(T) static unsigned char storage[sizeof(T)];
  return ::new (storage) T(args...);
}

MappedMemory& mapped_memory() {
  static MappedMemory* m = never_destroyed<MappedMemory>();
  return *m;
}

}  // namespace

std::pmr::memory_resource* runtime_memory() {
  static std::pmr::memory_resource* pool =
      never_destroyed<std::pmr::synchronized_pool_resource>(static_cast<std::pmr::memory_resource*>(&mapped_memory()));
  return pool;
}

bool in_runtime_memory(std::uintptr_t a) { return mapped_memory().holds(a); }

}  // namespace gpulab::emu
