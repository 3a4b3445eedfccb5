// `__shared__` storage: one copy per block, poisoned (all bytes 0xFF, NaN for
// floats) when the block first reaches the declaration, as a GPU would leave it
// uninitialised. The source rewriter turns declarations into these calls.
#pragma once
#include <cstddef>
#include "gpulab/emu/execution_context.hpp"

namespace gpulab::emu {

// Carves `bytes` out of the current block's shared memory (aligned to at least
// 16 bytes) and poisons it. Reports an error if the block's total exceeds the limit.
// `key` names the declaration: a second call with it in the same block returns
// the first allocation (blocks of a cooperative launch take turns on a worker,
// so a declaration's per-worker cache below may hold another block's address).
void* allocate_static_shared(size_t bytes, size_t alignment, const char* file, int line, const void* key = nullptr);

// `__shared__ T name;` inside a function: every thread of a block gets the same object.
// Tag is a lambda type unique to the declaration (and to each template instantiation).
template <class T, class Tag>
inline T& shared_variable(Tag, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  static __thread unsigned long long generation;
  static __thread void* storage;
  if (generation != gpulab_emu_block->generation) {
    storage = allocate_static_shared(sizeof(T), alignof(T), file, line, &storage);
    generation = gpulab_emu_block->generation;
  }
  return *static_cast<T*>(storage);
}

// `__shared__ T name;` at namespace scope: a thread_local (one per worker thread,
// each running one block at a time) registered so that every block starts with
// it poisoned, like any other shared memory.
struct namespace_shared_registration {
  namespace_shared_registration(void* (*address)(), size_t bytes, const char* file = __builtin_FILE(),
                                int line = __builtin_LINE());
};

// `extern __shared__ T name[];` inside a function: the launch's dynamic shared memory (T is a row
// type, `float[33]`, for `extern __shared__ float name[][33];`).
template <class T> inline T* dynamic_shared() { return reinterpret_cast<T*>(gpulab_emu_block->dynamic_shared); }

// `extern __shared__ T name[];` at namespace scope: behaves as the array everywhere.
template <class T> struct dynamic_shared_array {
  operator T*() const { return dynamic_shared<T>(); }
  T& operator[](std::ptrdiff_t i) const { return dynamic_shared<T>()[i]; }
};

}  // namespace gpulab::emu
