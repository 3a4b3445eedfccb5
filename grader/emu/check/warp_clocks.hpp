// Vector clocks of the lanes of each warp of the running block: what orders two
// accesses of lanes of one warp within a barrier interval. A completed warp
// collective (__syncwarp, __shfl_sync, __ballot_sync, ...) joins the clocks of
// the lanes in its mask; an access by lane i at clock x is ordered before a
// later access by lane j iff lane j has since learnt clock x of lane i.
#pragma once
#include <cstdint>
#include <vector>

namespace gpulab::emu::check {

class WarpClocks {
 public:
  void begin_block(unsigned threads);  // forgets every warp's clocks
  void synchronise(unsigned warp, unsigned mask);

  // The clock of `lane` of `warp` now (1 until its warp first synchronises).
  uint32_t clock(unsigned warp, unsigned lane) const { return touched_[warp] ? clocks_[index(warp, lane, lane)] : 1u; }
  // Whether an access by lane `from` at clock `at` is ordered before lane `to` now.
  bool ordered(unsigned warp, unsigned from, uint32_t at, unsigned to) const {
    return touched_[warp] && clocks_[index(warp, to, from)] >= at;
  }

 private:
  static unsigned index(unsigned warp, unsigned lane, unsigned other) { return (warp * 32 + lane) * 32 + other; }
  std::vector<uint32_t> clocks_;  // [warp][lane][other lane]: what `lane` knows of `other`'s clock
  std::vector<unsigned char> touched_;
};

}  // namespace gpulab::emu::check
