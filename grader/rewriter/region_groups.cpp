// Cooperative groups' thread block in the region analysis: the variables a kernel declares as one
// (`cg::thread_block cta = cg::this_thread_block();`, or with `auto`), and the calls that are its
// barrier, as __syncthreads is: `cta.sync()`, `cg::sync(cta)`, `cg::this_thread_block().sync()`.
// block_sync_at also finds the warp collectives that the region form runs (region_warps.cpp).
// A thread_block has no state of its own (its thread_rank() and thread_index() read the running
// thread), so it is one value for the whole block. Tiles, coalesced groups and grids stay waits
// the regions do not model.
#include <functional>
#include <string_view>

#include "rewriter/region_analysis_impl.hpp"

namespace gpulab::rewriter {
namespace {

// `[ns::]this_thread_block ( )` ending at `last`: its first token, or nullopt.
std::optional<std::size_t> this_thread_block_call_ending(const CodeTokens& t, std::size_t last) {
  if (last < 2 || !t.is_punct(last, ')') || !t.is_punct(last - 1, '(') ||
      !t.is_identifier(last - 2, "this_thread_block"))
    return std::nullopt;
  std::size_t first = last - 2;
  while (first >= 3 && t.is_scope_op(first - 2) && t.is_name(first - 3)) first -= 3;
  return first;
}

}  // namespace

void RegionAnalysis::collect_block_groups() {
  std::set<std::string, std::less<>> other;
  std::function<void(const Stmt&)> walk = [&](const Stmt& s) {
    if (s.kind == StmtKind::declaration) {
      if (const std::optional<Declaration> d = parse_declaration(t_, s.first, s.last - 1)) {
        const bool typed = t_.is_identifier(d->specifiers.last, "thread_block");
        for (const Declarator& dr : d->declarators) {
          const bool from_call = d->is_auto && dr.init == Declarator::Init::copy &&
                                 this_thread_block_call_ending(t_, dr.init_tokens.last) &&
                                 *this_thread_block_call_ending(t_, dr.init_tokens.last) == dr.init_tokens.first;
          const bool plain = dr.tokens.first == dr.name && dr.tokens.last == dr.name;  // no *, &, []
          ((typed || from_call) && plain ? block_groups_ : other).insert(std::string(t_.text(dr.name)));
        }
      }
    }
    for (const Stmt& c : s.children) walk(c);
  };
  walk(body_.body);
  for (const auto& name : other) block_groups_.erase(name);  // a name also used for something else
}

bool RegionAnalysis::is_block_group(std::size_t i) const {
  return t_.is_name(i) && block_groups_.count(t_.text(i)) > 0;
}

std::optional<std::size_t> RegionAnalysis::block_sync_at(std::size_t i) const {
  if (!t_.is_identifier(i) || t_.directive(i) != 0) return std::nullopt;
  const std::string_view w = t_.text(i);
  if (is_block_barrier(w)) {
    if (!t_.is_punct(i + 1, '(')) return std::nullopt;
    return closing_bracket(t_, i + 1);
  }
  if (is_region_warp_collective(w)) {  // a barrier with a value for the warp (region_warps.cpp)
    if (!t_.is_punct(i + 1, '(') || (i > 0 && (t_.is_punct(i - 1, '.') || t_.is_arrow_head(i - 1))) ||
        (i >= 2 && t_.is_scope_op(i - 2)))
      return std::nullopt;
    return closing_bracket(t_, i + 1);
  }
  if (w != "sync" || !t_.is_punct(i + 1, '(') || i < 2) return std::nullopt;
  const std::optional<std::size_t> close = closing_bracket(t_, i + 1);
  if (!close) return std::nullopt;
  if (t_.is_punct(i - 1, '.')) {  // cta.sync() or this_thread_block().sync()
    if (*close != i + 2) return std::nullopt;
    if (is_block_group(i - 2) && !(i >= 3 && (t_.is_punct(i - 3, '.') || t_.is_arrow_head(i - 3)))) return close;
    if (this_thread_block_call_ending(t_, i - 2)) return close;
    return std::nullopt;
  }
  if (t_.is_scope_op(i - 2)) {  // cg::sync(cta) or cg::sync(cg::this_thread_block())
    if (*close == i + 3 && is_block_group(i + 2)) return close;
    const std::optional<std::size_t> call = this_thread_block_call_ending(t_, *close - 1);
    if (call && *call == i + 2) return close;
  }
  return std::nullopt;
}

// The first token of the block sync call whose `sync` or barrier name is token i.
std::size_t RegionAnalysis::block_sync_start(std::size_t i) const {
  if (!t_.is_identifier(i, "sync")) return i;
  if (t_.is_punct(i - 1, '.')) {
    if (is_block_group(i - 2)) return i - 2;
    return this_thread_block_call_ending(t_, i - 2).value_or(i);
  }
  std::size_t first = i;
  while (first >= 3 && t_.is_scope_op(first - 2) && t_.is_name(first - 3)) first -= 3;
  return first;
}

}  // namespace gpulab::rewriter
