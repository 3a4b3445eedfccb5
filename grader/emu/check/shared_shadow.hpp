// Shadow state of the running block's shared memory: one Cell per 4-byte
// granule plus which bytes some thread of the block has written. Cells carry
// the block's generation, so a new block starts clean without clearing them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "access.hpp"

namespace gpulab::emu::check {

class SharedShadow {
 public:
  void begin_block(size_t bytes);  // the block may use [0, bytes) of shared memory

  Cell& cell(size_t granule) {
    Meta& m = meta_[granule];
    if (m.generation != generation_) {
      m.generation = generation_;
      m.written = 0;
      cells_[granule] = Cell{};
    }
    return cells_[granule];
  }
  // Bytes of the granule that some thread of this block wrote (call cell() first).
  uint8_t& written(size_t granule) { return meta_[granule].written; }

 private:
  struct Meta {
    uint32_t generation = 0;
    uint8_t written = 0;
  };
  std::vector<Cell> cells_;
  std::vector<Meta> meta_;
  uint32_t generation_ = 0;
};

}  // namespace gpulab::emu::check
