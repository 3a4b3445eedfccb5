// cooperative_groups/scan.h on the emulator: cg::inclusive_scan and
// cg::exclusive_scan over a tile or a coalesced group (cg::plus by default;
// the exclusive scan gives the first member a value-initialised T, as in CUDA).
#pragma once
#include <type_traits>

#include "../cooperative_groups.h"
#include "details/functional.h"
#include "details/group_algorithms.h"

namespace cooperative_groups {

template <class Group, class T, class Fn>
inline auto inclusive_scan(const Group& group, T&& value, Fn&& op) -> decltype(op(value, value)) {
  using V = std::remove_cv_t<std::remove_reference_t<T>>;
  return details::group_scan<true>(group, V(value), op);
}
template <class Group, class T>
inline std::remove_cv_t<std::remove_reference_t<T>> inclusive_scan(const Group& group, T&& value) {
  using V = std::remove_cv_t<std::remove_reference_t<T>>;
  return details::group_scan<true>(group, V(value), plus<V>());
}
template <class Group, class T, class Fn>
inline auto exclusive_scan(const Group& group, T&& value, Fn&& op) -> decltype(op(value, value)) {
  using V = std::remove_cv_t<std::remove_reference_t<T>>;
  return details::group_scan<false>(group, V(value), op);
}
template <class Group, class T>
inline std::remove_cv_t<std::remove_reference_t<T>> exclusive_scan(const Group& group, T&& value) {
  using V = std::remove_cv_t<std::remove_reference_t<T>>;
  return details::group_scan<false>(group, V(value), plus<V>());
}

}  // namespace cooperative_groups
