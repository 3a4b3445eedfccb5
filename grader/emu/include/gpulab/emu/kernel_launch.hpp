// Kernel launches. The rewriter turns `k<<<g, b, smem, stream>>>(args...)` into
//   ::gpulab::emu::launcher("k", __LINE__, g, b, smem, stream)
//       .run([=](auto... a) { k(a...); }, args...);
// The arguments are evaluated once on the host, as CUDA does, and kept with
// the launch (it is queued: the host runs on before the kernel has run); every
// GPU thread then calls the kernel with its own copy of them.
#pragma once
#include <cstddef>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include "gpulab/emu/runtime_types.hpp"
#include "gpulab/emu/thread_sweep.hpp"
#include "gpulab/emu/vector_types.hpp"

namespace gpulab::emu {

struct LaunchRequest {
  const char* kernel_name;
  const char* file;
  int line;
  dim3 grid;
  dim3 block;
  size_t dynamic_shared_bytes;
  cudaStream_t stream;
};

struct PointerArgument {
  unsigned index;  // 0 for the first argument
  const void* value;
};

// Type-erased kernel body: sweep(closure, s) runs the kernel for threads s.begin.. of the
// running block, one after another (thread_sweep.hpp). `owner` keeps the closure alive while
// the launch is queued (and while a graph holds it).
struct KernelBody {
  unsigned (*sweep)(const void* closure, ThreadSweep& s);
  const void* closure;
  std::shared_ptr<const void> owner;
  // Appends the arguments' bytes, each padded with zeros to a multiple of 8 (what a replay of a
  // repeated launch compares, grader/emu/src/launch_replay.hpp), and for each 8-byte word of them
  // whether it may hold an address (1) or cannot (0: a number narrower than a pointer, a
  // floating-point value); null when an argument is not trivially copyable.
  void (*argument_bytes)(const void* closure, std::vector<unsigned char>& out,
                         std::vector<unsigned char>& address_words) = nullptr;
  // Appends the arguments that are pointers to objects (not to functions), each with its position:
  // a launch whose pointer argument points into host memory a GPU cannot reach is refused
  // (grader/emu/src/launch_arguments.hpp).
  void (*pointer_arguments)(const void* closure, std::vector<PointerArgument>& out) = nullptr;
  size_t closure_bytes = 0;  // the closure's own size: what the kernel's threads read its arguments from
};

// Whether a kernel argument of type T can hold an address: an integer or enumeration narrower than
// a pointer and a floating-point value cannot (an `int n = 4000000` is a size, not a pointer);
// pointers, 8-byte integers and classes may.
template <class T>
inline constexpr bool may_hold_address_v =
    !(std::is_floating_point_v<T> || ((std::is_integral_v<T> || std::is_enum_v<T>)&&sizeof(T) < sizeof(void*)));

template <class T>
void append_argument(std::vector<unsigned char>& out, std::vector<unsigned char>& address_words, const T& v) {
  const size_t at = out.size(), words = (sizeof(T) + 7) / 8;
  out.resize(at + words * 8, 0);
  std::memcpy(out.data() + at, static_cast<const void*>(&v), sizeof(T));
  address_words.insert(address_words.end(), words, may_hold_address_v<T> ? 1 : 0);
}
template <class Closure>
void closure_argument_bytes(const void* closure, std::vector<unsigned char>& out,
                            std::vector<unsigned char>& address_words) {
  std::apply([&](const auto&... a) { (append_argument(out, address_words, a), ...); },
             static_cast<const Closure*>(closure)->arguments());
}
template <class T> void append_pointer_argument(std::vector<PointerArgument>& out, unsigned index, const T& v) {
  if constexpr (std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>) {
    out.push_back(PointerArgument{index, const_cast<const void*>(static_cast<const volatile void*>(v))});
  }
}
template <class Closure> void closure_pointer_arguments(const void* closure, std::vector<PointerArgument>& out) {
  unsigned index = 0;
  std::apply([&](const auto&... a) { (append_pointer_argument(out, index++, a), ...); },
             static_cast<const Closure*>(closure)->arguments());
}
template <class Tuple> struct trivially_copyable_arguments;
template <class... A> struct trivially_copyable_arguments<std::tuple<A...>> {
  static constexpr bool value = (std::is_trivially_copyable_v<A> && ...);
};

// The body of a closure whose run() calls the kernel once, for the current GPU thread, and
// whose arguments() are the tuple of the launch's arguments.
template <class Closure> KernelBody make_kernel_body(std::shared_ptr<const Closure> closure) {
  const void* p = closure.get();
  using Arguments = std::decay_t<decltype(closure->arguments())>;
  auto* bytes = trivially_copyable_arguments<Arguments>::value ? &closure_argument_bytes<Closure> : nullptr;
  return KernelBody{&sweep_threads<Closure>, p, std::move(closure), bytes, &closure_pointer_arguments<Closure>,
                    sizeof(Closure)};
}

// Validates the configuration (errors go to cudaGetLastError, as on a GPU) and
// queues the launch on its stream (grader/emu/src/stream_queue.hpp); it runs on
// the device thread while the host runs on.
void launch_kernel(const LaunchRequest& request, const KernelBody& body);

// Kernels that ran (valid launches) since the program started; the grader's
// harness uses it to tell a host function that launched nothing.
unsigned long long launch_count();

class launcher {
 public:
  launcher(const char* kernel_name, int line, dim3 grid, dim3 block, size_t dynamic_shared_bytes = 0,
           cudaStream_t stream = nullptr, const char* file = __builtin_FILE())
      : request_{kernel_name, file, line, grid, block, dynamic_shared_bytes, stream} {}

  template <class Kernel, class... Args> void run(Kernel kernel, Args... args) {
    struct Closure {
      Kernel kernel;
      std::tuple<Args...> args;
      void run() const {
        std::apply([this](const Args&... a) { kernel(a...); }, args);
      }
      const std::tuple<Args...>& arguments() const { return args; }
    };
    launch_kernel(request_,
                  make_kernel_body(std::make_shared<const Closure>(Closure{kernel, std::tuple<Args...>(args...)})));
  }

 private:
  LaunchRequest request_;
};

}  // namespace gpulab::emu
