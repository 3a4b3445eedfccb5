// The table of kernels known by address (gpulab/emu/kernel_registry.hpp), filled
// before main by the registrations the rewriter emits and read at launches by
// address; and the names of kernels launched with an argument array.
#include "gpulab/emu/kernel_registry.hpp"

#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

#include "gpulab/emu/array_launch.hpp"

namespace gpulab::emu {
namespace {
struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, RegisteredKernel> kernels;
};
Registry& registry() {  // built on first use: registrations run during static initialisation
  static Registry r;
  return r;
}
}  // namespace

void register_kernel(const void* address, const char* name, KernelBinder bind) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.kernels.emplace(address, RegisteredKernel{name, bind});  // a header's kernel seen by several files: kept once
}

const RegisteredKernel* find_registered_kernel(const void* address) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = r.kernels.find(address);
  return it == r.kernels.end() ? nullptr : &it->second;
}

cudaError_t launch_by_address(bool cooperative, const char* call, const char* file, int line, const void* kernel,
                              dim3 grid, dim3 block, void** args, size_t shared_bytes, cudaStream_t stream) {
  const RegisteredKernel* known = find_registered_kernel(kernel);
  if (!known)
    return reject_unknown_kernel_address(cooperative ? "cudaLaunchCooperativeKernel" : "cudaLaunchKernel", call, file,
                                         line);
  const LaunchRequest request{known->name, file, line, grid, block, shared_bytes, stream};
  const KernelBody body = known->bind(kernel, args);
  return cooperative ? launch_cooperative_kernel(request, body) : launch_kernel_checked(request, body);
}

const char* kernel_as_written(const char* call) {
  // Up to the first comma outside brackets: `k<float, 4>, grid, ...` gives `k<float, 4>`.
  std::string name;
  int depth = 0;
  for (const char* c = call; *c; ++c) {
    if (*c == '(' || *c == '<' || *c == '[') ++depth;
    if (*c == ')' || *c == '>' || *c == ']') --depth;
    if (*c == ',' && depth <= 0) break;
    name += *c;
  }
  static std::mutex mutex;
  static std::set<std::string> names;  // launches are queued: their names must outlive the call
  const std::lock_guard<std::mutex> lock(mutex);
  return names.insert(name).first->c_str();
}

}  // namespace gpulab::emu
