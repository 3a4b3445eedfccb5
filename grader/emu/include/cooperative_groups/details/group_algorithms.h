// How cg::reduce and the scans combine the values of a group on the emulator:
// warp tiles by shuffles (a butterfly for reduce, as on a GPU), coalesced
// groups by shuffles between ranks, tiles of more than 32 threads through the
// tile's scratch, in rank order.
#pragma once
#include <type_traits>

#include "../../cooperative_groups.h"

namespace cooperative_groups::details {

template <class G> struct static_tile_size : std::integral_constant<unsigned, 0> {};
template <unsigned N, class P>
struct static_tile_size<thread_block_tile<N, P>> : std::integral_constant<unsigned, N> {};

template <class G> constexpr void check_group() {
  static_assert(static_tile_size<G>::value != 0 || std::is_same_v<G, coalesced_group>,
                "cg::reduce and the cg scans take a thread_block_tile or a coalesced_group (as in CUDA)");
}

template <class G, class V, class Op> V group_reduce(const G& g, V v, Op&& op) {
  check_group<G>();
  constexpr unsigned n = static_tile_size<G>::value;
  if constexpr (n > 32) {
    return g.gather(
        v,
        [&op](const V* values, unsigned members) {
          V r = values[0];
          for (unsigned i = 1; i < members; ++i) r = op(r, values[i]);
          return r;
        },
        __builtin_FILE(), __builtin_LINE());
  } else if constexpr (n > 0) {
    for (unsigned offset = n / 2; offset > 0; offset /= 2) v = op(v, g.shfl_xor(v, offset));
    return v;
  } else {
    const unsigned size = g.size(), rank = g.thread_rank();
    for (unsigned offset = 1; offset < size; offset *= 2) {
      V other = g.shfl_down(v, offset);
      if (rank + offset < size && rank % (2 * offset) == 0) v = op(v, other);
    }
    return g.shfl(v, 0);
  }
}

template <bool Inclusive, class G, class V, class Op> V group_scan(const G& g, V v, Op&& op) {
  check_group<G>();
  constexpr unsigned n = static_tile_size<G>::value;
  if constexpr (n > 32) {
    const unsigned rank = g.thread_rank();
    return g.gather(
        v,
        [&op, rank](const V* values, unsigned) {
          const unsigned last = Inclusive ? rank : rank - 1;
          if (!Inclusive && rank == 0) return V{};
          V r = values[0];
          for (unsigned i = 1; i <= last; ++i) r = op(r, values[i]);
          return r;
        },
        __builtin_FILE(), __builtin_LINE());
  } else {
    const unsigned size = g.size(), rank = g.thread_rank();
    for (unsigned d = 1; d < size; d *= 2) {
      V lower = g.shfl_up(v, d);
      if (rank >= d) v = op(lower, v);
    }
    if constexpr (Inclusive) {
      return v;
    } else {
      V before = g.shfl_up(v, 1);
      return rank == 0 ? V{} : before;
    }
  }
}

}  // namespace cooperative_groups::details
