// How each region's loop over the threads is written (region_plan.hpp): unrolled when the region is
// a few statements without loops of their own (less loop overhead per thread), and stopping early
// when the region is `if (v < u) ...` after declarations of the thread's own values, with v growing
// with the thread's x index (region_growth.cpp) and u a uniform value: u does not change in the
// loop and the condition has no effect of its own, so the threads after the first one for which it
// is false would do nothing (a tree reduction's rounds, a Brent-Kung scan's).
#include <string_view>

#include "rewriter/region_analysis_impl.hpp"

namespace gpulab::rewriter {
namespace {

constexpr std::size_t kShortRegionTokens = 120;

// Tokens first..last spell a type that holds every thread index exactly and in order (int,
// unsigned, long, size_t, float, ...): not char, short or bool, which would wrap or saturate.
bool holds_thread_index(const CodeTokens& t, std::size_t first, std::size_t last) {
  if (first > last) return false;
  for (std::size_t i = first; i <= last; ++i) {
    if (t.is_punct(i, ':')) continue;
    if (!t.is_identifier(i)) return false;
    const std::string_view w = t.text(i);
    if (w != "int" && w != "unsigned" && w != "signed" && w != "long" && w != "const" && w != "auto" && w != "std" &&
        w != "size_t" && w != "ptrdiff_t" && w != "int32_t" && w != "uint32_t" && w != "int64_t" && w != "uint64_t" &&
        w != "float" && w != "double") {
      return false;
    }
  }
  return true;
}

bool has_loop(const Stmt& s) {
  if (s.kind == StmtKind::for_ || s.kind == StmtKind::while_ || s.kind == StmtKind::do_ ||
      s.kind == StmtKind::range_for || s.kind == StmtKind::goto_) {
    return true;
  }
  for (const Stmt& c : s.children)
    if (has_loop(c)) return true;
  return false;
}

}  // namespace

// Tokens first..last spell `threadIdx.x`, possibly cast (`(int)threadIdx.x`, `static_cast<int>(threadIdx.x)`)
// to a type that keeps its order, or name a variable recomputed from it.
bool RegionAnalysis::is_thread_x(TokenRange r) const {
  if (r.empty()) return false;
  if (r.last - r.first == 2) {
    return t_.is_identifier(r.first, "threadIdx") && t_.is_punct(r.first + 1, '.') && t_.is_identifier(r.last, "x");
  }
  if (t_.is_punct(r.first, '(') && closing_bracket(t_, r.first) == r.last)
    return is_thread_x({r.first + 1, r.last - 1});
  if (t_.is_identifier(r.first, "static_cast") && t_.is_punct(r.first + 1, '<')) {
    std::size_t i = r.first + 2;
    while (i < r.last && !t_.is_punct(i, '>')) ++i;
    return holds_thread_index(t_, r.first + 2, i - 1) && t_.is_punct(i + 1, '(') &&
           closing_bracket(t_, i + 1) == r.last && is_thread_x({i + 2, r.last - 1});
  }
  if (t_.is_punct(r.first, '(')) {  // (int)threadIdx.x
    const std::optional<std::size_t> close = closing_bracket(t_, r.first);
    return close && *close < r.last && holds_thread_index(t_, r.first + 1, *close - 1) &&
           is_thread_x({*close + 1, r.last});
  }
  if (r.first == r.last && t_.is_name(r.first)) {  // a variable recomputed from threadIdx.x
    const int v = resolve(r.first);
    if (v < 0 || uniform_.count(v) || plan_.vars[static_cast<std::size_t>(v)].kind != VarKind::recomputed) return false;
    const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
    const Declarator& d = var.declaration.declarators[var.declarator];
    return !var.lambda && d.init == Declarator::Init::copy && d.tokens.first == d.name && d.tokens.last == d.name &&
           holds_thread_index(t_, var.declaration.specifiers.first, var.declaration.specifiers.last) &&
           is_thread_x(d.init_tokens);
  }
  return false;
}

// `v < u` or `v <= u` as the condition of `if` statement s (no else), with v growing with the
// thread's x index (region_growth.cpp) and u a uniform value with no operator of lower precedence
// than `<` at its top level: fills in the region's early stop.
bool RegionAnalysis::stop_early(const Stmt& s, const std::set<int>& locals, Region& region) const {
  const TokenRange cond = s.cond;
  if (s.kind != StmtKind::if_ || s.children.size() != 1 || s.constexpr_if || cond.empty()) return false;
  std::size_t op = cond.first;
  while (op <= cond.last && !t_.is_punct(op, '<')) {
    if (t_.is_identifier(op, "static_cast") && t_.is_punct(op + 1, '<')) {  // its type's brackets
      op += 2;
      while (op < cond.last && !t_.is_punct(op, '>')) ++op;
    }
    if (t_.is_punct(op, '(') || t_.is_punct(op, '[')) op = closing_bracket(t_, op).value_or(cond.last);
    ++op;
  }
  if (op >= cond.last || op == cond.first || t_.is_punct(op - 1, '<')) return false;
  const std::size_t rhs = t_.is_punct(op + 1, '=') && t_.adjacent(op, op + 1) ? op + 2 : op + 1;
  if (rhs > cond.last || t_.is_punct(rhs, '<')) return false;
  for (std::size_t i = rhs; i <= cond.last; ++i) {
    if (t_.is_punct(i, '(') || t_.is_punct(i, '[')) {
      i = closing_bracket(t_, i).value_or(cond.last);
      continue;
    }
    if (t_[i].kind != TokenKind::Punct) continue;
    if (std::string_view("<>=!&|^?:,;{").find(t_.source()[t_[i].begin]) != std::string_view::npos) return false;
  }
  if (!pure_value({rhs, cond.last}, -1, nullptr)) return false;
  std::vector<TokenRange> guards;
  const TokenRange value{cond.first, op - 1};
  const std::optional<Growth> g = growth_of(value, locals, guards, 0);
  if (!g || !g->thread) return false;
  region.stop_before = &s;
  region.stop_unless = cond;
  region.stop_value = g->arithmetic ? value : TokenRange{};
  region.stop_guards = std::move(guards);
  return true;
}

// A declaration of the thread's own values only, each computed from its indices and uniform values
// without a division (which could fault in a thread the early stop skips): its variables.
std::optional<std::set<int>> RegionAnalysis::plain_locals(const Stmt& s) const {
  if (s.kind != StmtKind::declaration) return std::nullopt;
  const std::optional<Declaration> d = parse_declaration(t_, s.first, s.last - 1);
  if (!d || d->is_static || d->other_storage || d->is_shared) return std::nullopt;
  std::set<int> out;
  for (const Declarator& dr : d->declarators) {
    const auto v = plan_.declarator_var.find(dr.name);
    if (v == plan_.declarator_var.end() || dr.init != Declarator::Init::copy || dr.tokens.first != dr.name ||
        dr.tokens.last != dr.name) {
      return std::nullopt;
    }
    const VarKind kind = plan_.vars[static_cast<std::size_t>(v->second)].kind;
    if (kind != VarKind::thread && kind != VarKind::recomputed) return std::nullopt;
    for (std::size_t i = dr.init_tokens.first; i <= dr.init_tokens.last; ++i)
      if (t_.is_punct(i, '/') || t_.is_punct(i, '%')) return std::nullopt;
    if (!pure_value(dr.init_tokens, v->second, nullptr)) return std::nullopt;
    out.insert(v->second);
  }
  return out;
}

void RegionAnalysis::shape_region_loops() {
  for (Region& region : plan_.regions) {
    std::vector<const Stmt*> body;
    std::size_t tokens = 0;
    bool loops = false;
    for (const Stmt* s : region.statements) {
      if (plan_.hoisted.count(s)) continue;
      body.push_back(s);
      tokens += s->last - s->first + 1;
      loops = loops || has_loop(*s);
    }
    region.short_body = !loops && tokens <= kShortRegionTokens;
    if (body.empty() || region.predicate_of >= 0 || region.returns) continue;
    std::set<int> locals;
    bool plain = true;
    for (std::size_t k = 0; k + 1 < body.size() && plain; ++k) {
      const std::optional<std::set<int>> declared = plain_locals(*body[k]);
      plain = declared.has_value();
      if (plain) locals.insert(declared->begin(), declared->end());
    }
    if (plain) stop_early(*body.back(), locals, region);
  }
}

}  // namespace gpulab::rewriter
