// Warp vector clocks (see warp_clocks.hpp).
#include "warp_clocks.hpp"

#include <algorithm>

namespace gpulab::emu::check {

void WarpClocks::begin_block(unsigned threads) {
  const unsigned warps = (threads + 31) / 32;
  if (touched_.size() < warps) {
    touched_.resize(warps);
    clocks_.resize(static_cast<size_t>(warps) * 32 * 32);
  }
  std::fill(touched_.begin(), touched_.end(), 0);
}

void WarpClocks::synchronise(unsigned warp, unsigned mask) {
  if (warp >= touched_.size()) return;
  uint32_t* w = &clocks_[index(warp, 0, 0)];
  if (!touched_[warp]) {
    std::fill(w, w + 32 * 32, 0u);
    for (unsigned l = 0; l < 32; ++l) w[l * 32 + l] = 1;
    touched_[warp] = 1;
  }
  uint32_t joined[32] = {};
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    for (unsigned o = 0; o < 32; ++o) joined[o] = std::max(joined[o], w[l * 32 + o]);
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    std::copy(joined, joined + 32, w + l * 32);
    ++w[l * 32 + l];  // later accesses of this lane are after the collective
  }
}

}  // namespace gpulab::emu::check
