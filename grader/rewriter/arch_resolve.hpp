// The first step of the `__CUDA_ARCH__` rewrite: a conditional group whose conditions name
// `__CUDA_ARCH__` (or a macro that depends on it) but that takes the same branch in nvcc's device
// pass and its host pass (`#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600` on sm_90) is
// resolved as the preprocessor would: its directives and the branches not taken become blank
// lines, so every line keeps its number. Groups the two passes read differently are left for
// arch_views.hpp.
#pragma once

#include "rewriter/pp_conditionals.hpp"

#include <string>
#include <string_view>

namespace gpulab::rewriter {

std::string resolve_agreeing_groups(std::string_view source, std::string_view file_name, const ArchContext& ctx);

// Source bytes [begin, end) as blanks: line breaks kept, everything else a space.
void blank_out(std::string& text, std::size_t begin, std::size_t end);

}  // namespace gpulab::rewriter
