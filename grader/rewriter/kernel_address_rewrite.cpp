// Wrapping kernels whose address is taken as an untyped pointer (see kernel_address_rewrite.hpp).
#include "rewriter/kernel_address_rewrite.hpp"

#include <optional>

namespace gpulab::rewriter {
namespace {

bool is_specifier_with_arguments(const CodeTokens& t, std::size_t i) {
  for (std::string_view s : {"__launch_bounds__", "__attribute__", "__declspec", "__cluster_dims__", "__maxnreg__",
                             "alignas", "__align__", "__noinline__"}) {
    if (t.is_identifier(i, s)) return true;
  }
  return false;
}

// The '>' closing the template argument list opened at `open` (same directive), or nullopt.
std::optional<std::size_t> template_close(const CodeTokens& t, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < t.size() && t.directive(i) == t.directive(open); ++i) {
    if (t.is_punct(i, '(') || t.is_punct(i, '[')) {
      const std::optional<std::size_t> m = t.match_forward(i);
      if (!m) return std::nullopt;
      i = *m;
      continue;
    }
    if (t.is_punct(i, ';') || t.is_punct(i, '{') || t.is_punct(i, '}')) return std::nullopt;
    if (t.is_punct(i, '<')) ++depth;
    if (t.is_punct(i, '>') && !t.is_arrow_head(i) && --depth == 0) return i;
  }
  return std::nullopt;
}

// `( void * )`, `(const void*)`, `(void const *)` ending at token `close`: the index of its '('.
std::optional<std::size_t> void_pointer_cast_before(const CodeTokens& t, std::size_t close) {
  if (!t.is_punct(close, ')') || close < 3) return std::nullopt;
  std::size_t i = close - 1;
  if (!t.is_punct(i, '*')) return std::nullopt;
  bool seen_void = false;
  while (i-- > 0) {
    if (t.is_identifier(i, "void")) {
      seen_void = true;
    } else if (!(t.is_identifier(i, "const") || t.is_identifier(i, "volatile"))) {
      break;
    }
  }
  return seen_void && t.is_punct(i, '(') ? std::optional<std::size_t>(i) : std::nullopt;
}

// `reinterpret_cast < const void * > (` whose '(' is at `paren`.
bool is_reinterpret_to_void_pointer(const CodeTokens& t, std::size_t paren) {
  if (paren < 5 || !t.is_punct(paren - 1, '>') || !t.is_punct(paren - 2, '*')) return false;
  std::size_t i = paren - 3;
  bool seen_void = false;
  for (;; --i) {
    if (t.is_identifier(i, "void")) {
      seen_void = true;
    } else if (!(t.is_identifier(i, "const") || t.is_identifier(i, "volatile"))) {
      break;
    }
    if (i == 0) return false;
  }
  return seen_void && t.is_punct(i, '<') && i > 0 && t.is_identifier(i - 1, "reinterpret_cast");
}

}  // namespace

std::set<std::string> kernel_names_of(const CodeTokens& t) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t.is_identifier(i, "__global__") || t.directive(i) != 0) continue;
    for (std::size_t j = i + 1; j < t.size() && t.directive(j) == 0; ++j) {
      if (t.is_punct(j, ';') || t.is_punct(j, '{') || t.is_punct(j, '=')) break;
      if (!t.is_punct(j, '(')) continue;
      if (j > 0 && is_specifier_with_arguments(t, j - 1)) {
        const std::optional<std::size_t> m = t.match_forward(j);
        if (!m) break;
        j = *m;
        continue;
      }
      if (t.is_name(j - 1)) names.insert(std::string(t.text(j - 1)));
      break;
    }
  }
  return names;
}

void collect_kernel_addresses(const CodeTokens& t, const std::set<std::string>& kernels,
                              std::vector<SourceEdit>& edits) {
  if (kernels.empty()) return;
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (t.directive(i) != 0) continue;
    // The expression starts after `(void*)` or after the '(' of `reinterpret_cast<void*>(`.
    const bool after_cast = void_pointer_cast_before(t, i).has_value();
    const bool in_reinterpret = t.is_punct(i, '(') && is_reinterpret_to_void_pointer(t, i);
    if (!after_cast && !in_reinterpret) continue;
    const std::size_t first = i + 1;  // after the cast's `)`, or the `(` of reinterpret_cast<void*>(
    std::size_t j = first;
    if (t.is_punct(j, '&')) ++j;
    if (t.is_scope_op(j)) j += 2;
    while (t.is_name(j) && t.is_scope_op(j + 1) && t.is_name(j + 3)) j += 3;
    if (!t.is_name(j) || !kernels.count(std::string(t.text(j)))) continue;
    std::size_t last = j;
    if (t.is_punct(j + 1, '<')) {
      const std::optional<std::size_t> close = template_close(t, j + 1);
      if (!close) continue;
      last = *close;
    }
    // Only a whole operand: `(void*)k` followed by ')' ',' ';' and the like, not `(void*)k(...)`.
    if (t.is_punct(last + 1, '(') || t.is_punct(last + 1, '[') || t.is_punct(last + 1, '.')) continue;
    const std::string as_written = t.collapsed_text(t.is_punct(first, '&') ? first + 1 : first, last);
    // Two insertions, before and after the expression, which keeps its text and line breaks.
    SourceEdit open;
    open.begin = open.end = t[first].begin;
    open.parts.push_back(EditPart::literal("::gpulab::emu::kernel_address("));
    edits.push_back(std::move(open));
    SourceEdit close;
    close.begin = close.end = t[last].end;
    close.parts.push_back(EditPart::literal(", \"" + escape_string_literal(as_written) + "\")"));
    edits.push_back(std::move(close));
    i = last;
  }
}

}  // namespace gpulab::rewriter
