// A block's shared memory: the __shared__ variables declared in kernels, carved out of the
// runner's arena as each declaration is first reached (after the launch's dynamic shared memory),
// and the registry of namespace-scope ones.
#include <algorithm>
#include <cstring>

#include "block_runner.hpp"
#include "checker_hooks.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/shared_memory.hpp"
#include "launch_limits.hpp"
#include "namespace_shared.hpp"

namespace gpulab::emu {

std::vector<NamespaceShared>& namespace_shared() {
  static std::vector<NamespaceShared> list;
  return list;
}

namespace_shared_registration::namespace_shared_registration(void* (*address)(), size_t bytes, const char* file,
                                                             int line) {
  namespace_shared().push_back(NamespaceShared{address, bytes, file, line});
}

void* BlockRunner::allocate_static_shared(size_t bytes, size_t alignment, const char* file, int line, const void* key) {
  // A declaration already allocated in this block (its cache was overwritten by
  // another block that ran on this worker in between, in a cooperative launch).
  for (const StaticShared& s : static_shared_) {
    if (s.key == key && key) return s.p;
  }
  alignment = std::max<size_t>(alignment, 16);
  const size_t offset = (static_shared_used_ + alignment - 1) / alignment * alignment;
  const size_t dynamic = launch_->request.dynamic_shared_bytes;
  const size_t static_bytes = offset + bytes - dynamic;  // the __shared__ variables (with their alignment)
  if (static_bytes > kStaticSharedLimit || offset + bytes > launch_->shared_limit) {
    Diagnostic d;
    d.kind = "shared-memory-limit";
    d.severity = "error";
    d.kernel = launch_->request.kernel_name;
    d.file = launch_->request.file;
    d.line = launch_->request.line;
    d.block = block_label();
    if (static_bytes > kStaticSharedLimit) {
      d.message = launch_->where() + " declares " + std::to_string(static_bytes) +
                  " bytes of __shared__ variables, more than the " + std::to_string(kStaticSharedLimit) +
                  " bytes a kernel may declare statically (nvcc refuses it); use smaller tiles, or take the "
                  "memory as dynamic shared memory (extern __shared__, the launch's third argument, raised with "
                  "cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize)).";
    } else {
      d.message = launch_->where() + " needs " + std::to_string(offset + bytes) +
                  " bytes of shared memory per block (dynamic " + std::to_string(dynamic) + " + __shared__ variables " +
                  std::to_string(static_bytes) + "), more than the " + std::to_string(launch_->shared_limit) +
                  " bytes a block may use; use smaller tiles or fewer shared arrays.";
    }
    report(std::move(d), cudaErrorLaunchOutOfResources);
    abort_block();
  }
  static_shared_used_ = offset + bytes;
  unsigned char* p = shared_arena_.get() + offset;
  std::memset(p, kSharedPoison, bytes);
  if (hooks_) hooks_->shared_allocated(*this, p, bytes, file, line);
  if (key) static_shared_.push_back(StaticShared{key, p});
  return p;
}

}  // namespace gpulab::emu
