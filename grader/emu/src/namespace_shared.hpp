// The registry of namespace-scope __shared__ variables (one copy per worker, poisoned at every
// block start: gpulab/emu/shared_memory.hpp), and the poison byte of fresh shared memory.
#pragma once
#include <cstddef>
#include <vector>

namespace gpulab::emu {

constexpr unsigned char kSharedPoison = 0xFF;  // what a GPU leaves in fresh shared memory: NaN, -1

struct NamespaceShared {
  void* (*address)();
  std::size_t bytes;
  const char* file;
  int line;
};
std::vector<NamespaceShared>& namespace_shared();

}  // namespace gpulab::emu
