// One recorded memory access of a GPU thread, as the race detector keeps it in
// shadow memory: who (block, thread), when (barrier epoch, warp clock), which
// bytes of a 4-byte granule, how (read / write, plain / volatile / atomic) and
// from which code address.
#pragma once
#include <cstdint>

namespace gpulab::emu::check {

enum AccessFlags : uint8_t {
  kRead = 0,
  kWrite = 1,
  kAtomic = 2,    // __tsan_atomic*: atomicAdd and friends, std::atomic_ref
  kVolatile = 4,  // volatile loads and stores (relaxed atomics across blocks, plain within a block)
  kUpdate = 8,    // an atomic read-modify-write: it reads the old value too
};

// Code addresses are kept as 32-bit offsets from a point in this library, which
// is linked into the same executable as the kernels: 20-byte records.
int32_t code_offset(uintptr_t pc);
uintptr_t code_address(int32_t offset);  // the inverse

struct Access {
  int32_t pc = 0;       // code address of the access, as code_offset()
  uint32_t block = 0;   // linear block index + 1; 0 means "no access recorded"
  uint32_t epoch = 0;   // barriers the block had passed
  uint32_t wclock = 0;  // the thread's warp clock (see warp_clocks.hpp)
  uint16_t thread = 0;  // linear thread index in the block
  uint8_t mask = 0;     // bytes of the granule accessed (bit i = byte i)
  uint8_t flags = 0;    // AccessFlags

  bool empty() const { return block == 0; }
  bool is_write() const { return flags & kWrite; }
  bool is_atomic() const { return flags & kAtomic; }
  bool is_plain_write() const { return (flags & (kWrite | kAtomic | kVolatile)) == kWrite; }
  bool same_thread(const Access& o) const { return block == o.block && thread == o.thread; }
};

// Shadow state of one 4-byte granule of shared or global memory.
struct Cell {
  Access write;              // the last write (bytes in write.mask)
  Access read[2];            // reads since that write, by up to two different threads
  uint32_t write_fence = 0;  // the writer's __threadfence() count when it wrote
};
static_assert(sizeof(Cell) == 64, "one cache line per 4 bytes of device memory");

}  // namespace gpulab::emu::check
