// Shadow state of shared memory (see shared_shadow.hpp).
#include "shared_shadow.hpp"

#include <algorithm>

namespace gpulab::emu::check {

void SharedShadow::begin_block(size_t bytes) {
  const size_t granules = (bytes + 3) / 4;
  if (cells_.size() < granules) {
    cells_.resize(granules);
    meta_.resize(granules);
  }
  if (++generation_ == 0) {  // wrapped: old stamps could match again
    std::fill(meta_.begin(), meta_.end(), Meta{});
    generation_ = 1;
  }
}

}  // namespace gpulab::emu::check
