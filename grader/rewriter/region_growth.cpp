// Which values of a region never decrease from one thread to the next along a row of the block
// (region_loops.cpp stops a row's loop at the first thread whose `value < bound` is false): the
// thread's x index, and sums and products built from it with values every thread agrees on:
// `(t + 1) * 2 * stride - 1` (a Brent-Kung round's index) grows with t as long as `stride >= 0`,
// which the loop checks as it runs (a guard). Arithmetic on the thread's index must be signed or
// floating (unsigned arithmetic wraps: `t - 5u` is huge for t < 5); subtraction of a value that
// depends on the thread, division, shifts, calls and memory are not followed.
#include <string_view>

#include "rewriter/region_analysis_impl.hpp"

namespace gpulab::rewriter {
namespace {

// `int`, `long long`, `const int`, `std::int64_t`, `float`, ...: arithmetic that keeps order (a
// signed integer's overflow is undefined behaviour, which the compiler assumes away too).
bool ordered_arithmetic_type(const CodeTokens& t, TokenRange r) {
  bool number = false;
  for (std::size_t i = r.first; !r.empty() && i <= r.last; ++i) {
    if (t.is_punct(i, ':')) continue;
    if (!t.is_identifier(i)) return false;
    const std::string_view w = t.text(i);
    if (w == "const" || w == "std") continue;
    if (w == "int" || w == "long" || w == "short" || w == "signed" || w == "int32_t" || w == "int64_t" ||
        w == "ptrdiff_t" || w == "float" || w == "double") {
      number = true;
      continue;
    }
    return false;
  }
  return number;
}

// A decimal literal of type int or long (no `u` suffix, no fraction): signed.
bool signed_literal(const CodeTokens& t, std::size_t i) {
  if (t[i].kind != TokenKind::Number) return false;
  const std::string_view w = t.text(i);
  std::size_t k = 0;
  while (k < w.size() && w[k] >= '0' && w[k] <= '9') ++k;
  if (k == 0 || (k > 1 && w[0] == '0')) return false;
  for (; k < w.size(); ++k)
    if (w[k] != 'l' && w[k] != 'L') return false;
  return true;
}

// A binary `+`, `-` or `*` at token i of r (not a sign, a dereference, `->`, `++` or `+=`).
bool binary_operator(const CodeTokens& t, TokenRange r, std::size_t i) {
  if (i == r.first || i >= r.last) return false;
  if (t.adjacent(i, i + 1) &&
      (t.is_punct(i + 1, '>') || t.is_punct(i + 1, '=') || t.is_punct(i + 1, '+') || t.is_punct(i + 1, '-'))) {
    return false;
  }
  const std::size_t p = i - 1;
  return t[p].kind == TokenKind::Number || t.is_name(p) || t.is_punct(p, ')') || t.is_punct(p, ']');
}

// The top-level tokens of r that are one of `ops` used as binary operators; nullopt when r holds
// something this reading does not follow at its top level (`++`, `+=`, a cast's angle brackets
// with a `*` in them are skipped as a whole).
std::optional<std::vector<std::size_t>> top_level_operators(const CodeTokens& t, TokenRange r, std::string_view ops) {
  std::vector<std::size_t> out;
  for (std::size_t i = r.first; i <= r.last; ++i) {
    if (t.is_punct(i, '(') || t.is_punct(i, '[') || t.is_punct(i, '{')) {
      const std::optional<std::size_t> close = closing_bracket(t, i);
      if (!close || *close > r.last) return std::nullopt;
      i = *close;
      continue;
    }
    if (t.is_identifier(i) && t.text(i).size() > 5 && t.text(i).substr(t.text(i).size() - 5) == "_cast" &&
        t.is_punct(i + 1, '<')) {
      while (i < r.last && !t.is_punct(i, '>')) ++i;
      continue;
    }
    if (t[i].kind != TokenKind::Punct) continue;
    const char c = t.source()[t[i].begin];
    if ((c == '+' || c == '-') && i < r.last && t.adjacent(i, i + 1) &&
        (t.is_punct(i + 1, c) || t.is_punct(i + 1, '=')))
      return std::nullopt;  // ++, --, +=, -=
    if (ops.find(c) != std::string_view::npos && binary_operator(t, r, i)) out.push_back(i);
  }
  return out;
}

}  // namespace

std::optional<Growth> RegionAnalysis::growth_of(TokenRange r, const std::set<int>& locals,
                                                std::vector<TokenRange>& guards, int depth) const {
  if (r.empty() || depth > 12) return std::nullopt;
  const std::optional<std::vector<std::size_t>> sum_ops = top_level_operators(t_, r, "+-");
  if (!sum_ops) return std::nullopt;
  if (!sum_ops->empty()) {  // a sum: each term that depends on the thread is added
    Growth g{false, true, true};
    std::size_t first = r.first;
    for (std::size_t k = 0; k <= sum_ops->size(); ++k) {
      const std::size_t last = k < sum_ops->size() ? (*sum_ops)[k] - 1 : r.last;
      const std::optional<Growth> term = growth_of({first, last}, locals, guards, depth + 1);
      if (!term) return std::nullopt;
      if (term->thread && k > 0 && t_.is_punct((*sum_ops)[k - 1], '-')) return std::nullopt;
      g.thread = g.thread || term->thread;
      g.ordered = g.ordered && term->ordered;
      if (k < sum_ops->size()) first = (*sum_ops)[k] + 1;
    }
    if (g.thread && !g.ordered) return std::nullopt;
    return g;
  }
  const std::optional<std::vector<std::size_t>> products = top_level_operators(t_, r, "*/%");
  if (!products) return std::nullopt;
  if (!products->empty()) {  // a product: one factor depends on the thread, the others are >= 0
    Growth g{false, true, true};
    std::vector<TokenRange> factor_guards;
    std::size_t first = r.first;
    for (std::size_t k = 0; k <= products->size(); ++k) {
      const std::size_t last = k < products->size() ? (*products)[k] - 1 : r.last;
      const std::optional<Growth> factor = growth_of({first, last}, locals, guards, depth + 1);
      if (!factor) return std::nullopt;
      if (factor->thread) {
        if (g.thread) return std::nullopt;
        g.thread = true;
      } else if (!(first == last && t_[first].kind == TokenKind::Number)) {
        factor_guards.push_back({first, last});
      }
      g.ordered = g.ordered && factor->ordered;
      if (k < products->size()) first = (*products)[k] + 1;
    }
    if (!g.thread)
      return pure_value(r, -1, nullptr) ? std::optional<Growth>(Growth{false, g.ordered, false}) : std::nullopt;
    for (const std::size_t op : *products)
      if (!t_.is_punct(op, '*')) return std::nullopt;  // x / u, x % u
    if (!g.ordered) return std::nullopt;
    guards.insert(guards.end(), factor_guards.begin(), factor_guards.end());
    return g;
  }
  if (t_.is_punct(r.first, '(') && closing_bracket(t_, r.first) == r.last) {
    return growth_of({r.first + 1, r.last - 1}, locals, guards, depth + 1);
  }
  if (is_thread_x(r)) {  // threadIdx.x, a cast of it, a variable recomputed from it
    bool ordered = false;
    if (r.first == r.last) {
      const RegionVar& var = plan_.vars[static_cast<std::size_t>(resolve(r.first))];
      ordered = ordered_arithmetic_type(t_, var.declaration.specifiers);
    } else if (t_.is_punct(r.first, '(')) {
      ordered = ordered_arithmetic_type(t_, {r.first + 1, *closing_bracket(t_, r.first) - 1});
    } else if (t_.is_identifier(r.first, "static_cast")) {
      std::size_t close = r.first + 2;
      while (close < r.last && !t_.is_punct(close, '>')) ++close;
      ordered = ordered_arithmetic_type(t_, {r.first + 2, close - 1});
    }
    return Growth{true, ordered, false};
  }
  if (r.first == r.last && t_.is_name(r.first)) {
    const int v = resolve(r.first);
    if (v >= 0 && !uniform_.count(v)) {  // a local of the region's first statements, or a recomputed variable
      const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
      if (!locals.count(v) && var.kind != VarKind::recomputed) return std::nullopt;
      const Declarator& d = var.declaration.declarators[var.declarator];
      if (var.lambda || d.init != Declarator::Init::copy || d.tokens.first != d.name || d.tokens.last != d.name)
        return std::nullopt;
      const std::optional<Growth> init = growth_of(d.init_tokens, locals, guards, depth + 1);
      if (!init || !init->thread || !ordered_arithmetic_type(t_, var.declaration.specifiers)) return std::nullopt;
      return Growth{true, true, init->arithmetic};
    }
  }
  if (!pure_value(r, -1, nullptr)) return std::nullopt;
  bool ordered = r.first == r.last && signed_literal(t_, r.first);
  if (r.first == r.last && t_.is_name(r.first)) {
    const int v = resolve(r.first);
    ordered = v >= 0 && !plan_.vars[static_cast<std::size_t>(v)].parameter &&
              ordered_arithmetic_type(t_, plan_.vars[static_cast<std::size_t>(v)].declaration.specifiers);
  }
  return Growth{false, ordered, false};
}

}  // namespace gpulab::rewriter
