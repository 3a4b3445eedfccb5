// The preprocessor directives of a source and its conditional groups (#if/#ifdef/#ifndef, #elif,
// #else, #endif), and what a group's conditions say on each side of nvcc's two compilations:
// the device pass, where `__CUDA_ARCH__` is defined (e.g. 900), and the host pass, where it is not.
// Conditions are evaluated with three values: a condition that names a macro the rewriter cannot
// know (a -D option, a header's macro) is "unknown", and the group is left to the compiler's own
// preprocessor.
#pragma once

#include "rewriter/code_tokens.hpp"

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::rewriter {

constexpr std::size_t npos = static_cast<std::size_t>(-1);

struct Directive {
  std::size_t hash;       // token index of the '#'
  std::size_t last;       // token index of the directive's last token
  std::string_view name;  // "if", "define", ... ("" for a lone '#')
};

// The directives of the source, in order.
std::vector<Directive> directives_of(const CodeTokens& t);

struct ConditionalGroup {
  std::vector<std::size_t> branches;  // directive indices: the #if/#ifdef/#ifndef, each #elif, the #else
  std::size_t endif = npos;           // directive index of the #endif (npos: unterminated)
};

// Every conditional group, in the order of their opening directive; `group_of[d]` is the group
// directive d opens, continues or closes (npos for other directives).
struct Conditionals {
  std::vector<ConditionalGroup> groups;
  std::vector<std::size_t> group_of;
};
Conditionals conditionals_of(const std::vector<Directive>& directives);

enum class Side { device, host };

// What the rewriter knows while reading conditions: the architecture the device pass compiles for
// (900 for sm_90) and the macros whose value depends on `__CUDA_ARCH__` (arch_macros.hpp).
struct ArchContext {
  int arch = 900;
  const std::set<std::string>* macros = nullptr;
  bool is_arch_macro(std::string_view name) const;
};

// The condition of branch directive d (#if, #ifdef, #ifndef, #elif, #else) on one side: true,
// false, or nullopt when it depends on something the rewriter cannot know.
std::optional<bool> branch_condition(const CodeTokens& t, const Directive& d, Side side, const ArchContext& ctx);

// True when the condition of directive d names `__CUDA_ARCH__` or a macro that depends on it.
bool condition_mentions_arch(const CodeTokens& t, const Directive& d, const ArchContext& ctx);

// The branches the group may take on one side (indices into group.branches; group.branches.size()
// stands for "none": no branch taken), in order.
std::vector<std::size_t> possible_branches(const CodeTokens& t, const std::vector<Directive>& directives,
                                           const ConditionalGroup& group, Side side, const ArchContext& ctx);

// The condition of branch directive d as one line of preprocessor expression, as the device pass
// reads it (`__CUDA_ARCH__` replaced by its value, macros that depend on it by their device
// versions, see arch_macros.hpp) or as the host pass reads it (unchanged). "1" for #else.
std::string condition_expression(const CodeTokens& t, const Directive& d, Side side, const ArchContext& ctx);

}  // namespace gpulab::rewriter
