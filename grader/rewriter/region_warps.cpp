// Warp collectives in the region analysis: a shuffle, vote or __syncwarp that every thread of the
// block reaches together (where a __syncthreads() would be accepted) is a barrier with a value, as
// `v = __syncthreads_count(p);` is. Its value argument (a shuffle's `var`, a vote's predicate) and
// its lane or delta are left by each thread at the end of the region before it; at block level the
// runtime checks the uniform mask and width as the fibers do and works out each thread's result
// over its warp (RegionBlock::warp, gpulab/emu/thread_regions.hpp); the statement that takes the
// result runs in the region after it with the call replaced by that result (region_emit.cpp).
//
// Accepted statements: the collective as a statement of its own, a declaration's whole
// initializer, the whole right-hand side of an assignment (`=` or compound: the right operand is
// evaluated first), and the whole condition of an `if` whose branches hold no barrier and leave
// nothing early. The value and lane arguments have no side effects (names, members, subscripts,
// arithmetic, casts); the mask and width are uniform.
#include <array>
#include <string_view>

#include "rewriter/region_analysis_impl.hpp"

namespace gpulab::rewriter {
namespace {

struct WarpCollective {
  std::string_view name;
  std::string_view op;  // the runtime's WarpOp
  std::size_t min_args, max_args;
};

constexpr std::array<WarpCollective, 8> kCollectives{{
    {"__shfl_sync", "shfl_idx", 3, 4},
    {"__shfl_up_sync", "shfl_up", 3, 4},
    {"__shfl_down_sync", "shfl_down", 3, 4},
    {"__shfl_xor_sync", "shfl_xor", 3, 4},
    {"__ballot_sync", "ballot", 2, 2},
    {"__any_sync", "any", 2, 2},
    {"__all_sync", "all", 2, 2},
    {"__syncwarp", "sync", 0, 1},
}};

const WarpCollective* collective_named(std::string_view name) {
  for (const WarpCollective& c : kCollectives)
    if (c.name == name) return &c;
  return nullptr;
}

// The arguments between the parentheses open..close, split at top-level commas.
std::vector<TokenRange> arguments(const CodeTokens& t, std::size_t open, std::size_t close) {
  std::vector<TokenRange> out;
  if (close == open + 1) return out;
  std::size_t first = open + 1;
  for (std::size_t i = open + 1; i <= close; ++i) {
    if (i < close && (t.is_punct(i, '(') || t.is_punct(i, '[') || t.is_punct(i, '{'))) {
      const std::optional<std::size_t> c = closing_bracket(t, i);
      if (!c || *c >= close) return {};
      i = *c;
      continue;
    }
    if (i == close || t.is_punct(i, ',')) {
      out.push_back(TokenRange{first, i - 1});
      first = i + 1;
    }
  }
  return out;
}

bool one_of(std::string_view w, std::initializer_list<std::string_view> words) {
  for (std::string_view x : words)
    if (w == x) return true;
  return false;
}

}  // namespace

bool is_region_warp_collective(std::string_view name) { return collective_named(name) != nullptr; }

std::string_view warp_collective_op(std::string_view name) {
  const WarpCollective* c = collective_named(name);
  return c ? c->op : std::string_view{};
}

// The `>` before the '(' at `open` may close the template arguments of a call, `f<int>(`: walking
// back over names, numbers, `::`, `,`, `*`, `&` and nested `<...>`, an opening `<` after a name.
// (`(t >> (r + 3))` is not: a parenthesis stops the walk.)
bool RegionAnalysis::template_call_before(std::size_t open, std::size_t first) const {
  int depth = 0;
  for (std::size_t i = open - 1; i >= first && i < open; --i) {
    if (t_.is_punct(i, '>') && !(i > first && t_.is_arrow_head(i))) {
      ++depth;
    } else if (t_.is_punct(i, '<')) {
      if (--depth == 0) return i > first && t_.is_identifier(i - 1);
    } else if (!(t_.is_identifier(i) || t_[i].kind == TokenKind::Number || t_.is_punct(i, ':') || t_.is_punct(i, ',') ||
                 t_.is_punct(i, '*') || t_.is_punct(i, '&'))) {
      return false;
    }
    if (i == first) break;
  }
  return false;
}

// A value the region before the collective can compute for each thread without changing anything:
// names, members, subscripts, arithmetic, comparisons, casts. Returns "" or what it does.
std::string RegionAnalysis::side_effects_in(TokenRange r) const {
  if (r.empty()) return "it is empty";
  bool cast = false;  // a named cast's `<type>` comes before its `(`
  for (std::size_t i = r.first; i <= r.last; ++i) {
    if (t_.is_punct(i, '(') && i > r.first && t_.is_punct(i - 1, '>')) {
      if (!cast && template_call_before(i, r.first)) return "it calls a template (" + where(i) + ")";
      cast = false;
    }
    if (t_.directive(i) != 0) return "it holds a directive";
    if (is_assignment_at(t_, i) || is_increment_at(t_, i)) return "it assigns (" + where(i) + ")";
    if (t_.is_punct(i, '{') || t_.is_punct(i, ';')) return "it holds a block or a lambda (" + where(i) + ")";
    if (t_.is_punct(i, '[') &&
        (i == r.first || !(t_.is_identifier(i - 1) || t_.is_punct(i - 1, ')') || t_.is_punct(i - 1, ']'))))
      return "it holds a lambda (" + where(i) + ")";
    if (t_.is_punct(i, '<') && t_.punct_run(i, '<') >= 3) return "it launches a kernel (" + where(i) + ")";
    if (!t_.is_identifier(i)) continue;
    const std::string_view w = t_.text(i);
    if (one_of(w, {"new", "delete", "throw", "co_await", "co_yield", "operator", "asm", "__asm__"}))
      return "it uses " + std::string(w) + " (" + where(i) + ")";
    if (one_of(w, {"static_cast", "const_cast", "reinterpret_cast"})) cast = true;
    if (cast || one_of(w, {"sizeof", "alignof", "decltype"})) continue;
    if (t_.is_punct(i + 1, '(') && !is_builtin_type_name(w))
      return "it calls " + std::string(w) + " (" + where(i) + ")";
  }
  return "";
}

// `__syncwarp();`, `v = __shfl_sync(m, x, 0);`, `v += __shfl_down_sync(m, v, d);`,
// `const unsigned b = __ballot_sync(m, p);`, `if (__all_sync(m, p)) ...`: records the collective
// and gives its value to the region before it (`region`, made if needed). False (with a reason
// given to fail() when the shape was right) when it is not one of these.
bool RegionAnalysis::warp_statement(const Stmt& s, int& region) {
  std::size_t call = s.first;
  bool used = true;
  std::size_t end = s.last;  // the token right after the call
  if (s.kind == StmtKind::declaration) {
    const std::optional<Declaration> d = parse_declaration(t_, s.first, s.last - 1);
    if (!d || d->declarators.size() != 1 || d->declarators[0].init != Declarator::Init::copy) return false;
    call = d->declarators[0].init_tokens.first;
  } else if (s.kind == StmtKind::expression) {
    if (t_.is_identifier(s.first) && is_region_warp_collective(t_.text(s.first))) {
      used = false;
    } else {
      for (std::size_t i = s.first, depth = 0; i < s.last; ++i) {
        if (t_.is_punct(i, '(') || t_.is_punct(i, '[') || t_.is_punct(i, '{')) ++depth;
        if ((t_.is_punct(i, ')') || t_.is_punct(i, ']') || t_.is_punct(i, '}')) && depth > 0) --depth;
        std::size_t width = 0;
        if (depth == 0 && i > s.first && is_assignment_at(t_, i, &width)) {
          call = i + width;
          break;
        }
      }
      if (call == s.first) return false;
    }
  } else if (s.kind == StmtKind::if_) {
    if (s.cond.empty()) return false;
    call = s.cond.first;
    end = s.cond.last + 1;
    for (const Stmt& c : s.children)
      if (contains_barrier(c)) return false;
    if (escapes(s, true)) return false;
  } else {
    return false;
  }
  if (!t_.is_identifier(call) || !is_region_warp_collective(t_.text(call)) || !block_sync_at(call)) return false;
  const std::size_t close = *block_sync_at(call);
  if (close + 1 != end) return false;
  const WarpCollective& c = *collective_named(t_.text(call));
  const std::vector<TokenRange> args = arguments(t_, call + 1, close);
  const std::string at = c.name.data() + std::string(" on ") + where(call);
  if (sym_.functions.count(c.name) || sym_.macros.count(c.name) || sym_.synchronising.count(c.name))
    return fail("the program defines its own " + std::string(c.name) + " (" + at + ")");
  if (args.size() < c.min_args || args.size() > c.max_args)
    return fail("the arguments of " + at + " are not the ones the rewriter reads");
  ValuedBarrier b;
  b.warp = true;
  b.result_used = used;
  b.call_first = call;
  b.call_last = close;
  b.combine = std::string(c.op);
  if (!args.empty()) b.mask = args[0];
  if (args.size() > 1) b.predicate = args[1];
  if (args.size() > 2) b.lane = args[2];
  if (args.size() > 3) b.width = args[3];
  for (const TokenRange r : {b.predicate, b.lane}) {
    if (r.empty()) continue;
    if (std::string why = side_effects_in(r); !why.empty())
      return fail("an argument of " + at + " is more than a value: " + why);
  }
  plan_.warp_collectives = true;
  const int id = static_cast<int>(plan_.barriers.size());
  plan_.barriers.push_back(b);
  plan_.barrier_of[&s] = id;
  if (!b.predicate.empty()) {
    plan_.regions[static_cast<std::size_t>(region_for(region))].predicate_of = id;
    region_sequence_[region] = sequence_key_;
  }
  return true;
}

// The mask and width of every warp collective are values every thread of the block agrees on: the
// runtime checks them once for the block.
std::string RegionAnalysis::check_warp_arguments() const {
  for (const ValuedBarrier& b : plan_.barriers) {
    if (!b.warp) continue;
    const std::string at = std::string(t_.text(b.call_first)) + " on " + where(b.call_first);
    std::string why;
    if (!b.mask.empty() && !pure_value(b.mask, -1, &why))
      return "the mask of " + at + " may differ between threads: " + why;
    if (!b.width.empty() && !pure_value(b.width, -1, &why))
      return "the width of " + at + " may differ between threads: " + why;
  }
  return "";
}

}  // namespace gpulab::rewriter
