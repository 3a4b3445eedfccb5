// cooperative_groups/reduce.h on the emulator: cg::reduce over a tile or a
// coalesced group (every member gets the result) and the operators. As in
// CUDA, these are not declared by <cooperative_groups.h> alone.
#pragma once
#include <type_traits>

#include "../cooperative_groups.h"
#include "details/functional.h"
#include "details/group_algorithms.h"

namespace cooperative_groups {

template <class Group, class T, class Fn>
inline auto reduce(const Group& group, T&& value, Fn&& op) -> decltype(op(value, value)) {
  using V = std::remove_cv_t<std::remove_reference_t<T>>;
  return details::group_reduce(group, V(value), op);
}

}  // namespace cooperative_groups
