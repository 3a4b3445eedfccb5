// The profiler of the checking build (`gpulab run --profile`): it logs every
// shared- and global-memory access of the running block's GPU threads, one
// log per thread, and when the block reaches a barrier or ends (every thread
// has run up to that point, one after another), groups the logs of each warp
// into warp-level requests and adds their cost to the launch's per-site
// totals. A request is what the lanes of a warp do at one code address on
// its k-th execution since the last barrier, which is how a warp executing in
// step meets the same instruction: lanes that skipped it (divergence) or left
// early are simply not in it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "gpulab/emu/profile_api.hpp"

namespace gpulab::emu {
struct LaunchState;
}

namespace gpulab::emu::check {

struct LoggedAccess {
  uintptr_t address = 0;
  int32_t pc = 0;  // as code_offset()
  uint16_t size = 0;
  uint8_t flags = 0;   // AccessFlags
  uint8_t shared = 0;  // 1: shared memory, 0: global
};
static_assert(sizeof(LoggedAccess) == 16);

class Profiler {
 public:
  void begin_launch();
  // Whether block `block` of `total` is profiled: all of them up to GPULAB_PROFILE_BLOCKS
  // (default 128; 0: all), else that many, evenly spread over the grid.
  bool samples(unsigned long long block, unsigned long long total) const;
  void begin_block(unsigned thread_count);
  void log(unsigned thread, uintptr_t address, size_t size, uint8_t flags, int32_t pc, bool shared) {
    if (logged_ >= budget_) {
      ++unprofiled_;
      return;
    }
    ++logged_;
    logs_[thread].push_back(LoggedAccess{address, pc, static_cast<uint16_t>(size > 0xffff ? 0xffff : size), flags,
                                         static_cast<uint8_t>(shared)});
  }
  void flush();  // every thread of the block has reached a barrier or the end
  void end_block(size_t static_shared_bytes);
  void end_launch(const LaunchState& launch);  // adds the launch to the process's profile

 private:
  void group_warp(unsigned first_thread, unsigned lanes);
  // The warp's lockstep accesses from the i-th on that, in every lane, are distinct, of one kind
  // and width, at distinct sites, and together cover one contiguous block: 1 when the next one
  // does not continue the block (16 at most).
  size_t contiguous_run(unsigned first_thread, unsigned lanes, size_t i) const;
  // Into how large vector accesses (4 or 2, else 1) such a run splits: groups that cover a block
  // aligned to their size in every lane. That is how g++'s code reads a float4's fields through a
  // reference or stores a make_float4 (one 4-byte access per field) where nvcc makes one 16-byte
  // access (LDG.128, STS.64), and the hardware counts it so. Scalar reads of a float array four
  // at a time that are not aligned to 16 bytes in every lane stay four accesses, as with nvcc.
  unsigned vector_group(unsigned first_thread, unsigned lanes, size_t i, size_t run) const;
  void add_request(int32_t pc, uint8_t flags, bool shared, unsigned lane_slots, bool approximate);

  std::vector<std::vector<LoggedAccess>> logs_;     // per thread of the running block
  std::unordered_map<uint64_t, SiteCounts> sites_;  // (pc, kind) -> totals, this launch
  size_t logged_ = 0;
  size_t budget_ = 0;
  uint64_t unprofiled_ = 0;
  size_t static_shared_ = 0;
  unsigned threads_ = 0;
  unsigned long long sample_blocks_ = 0;    // 0: every block
  unsigned long long profiled_blocks_ = 0;  // this launch
};

}  // namespace gpulab::emu::check
