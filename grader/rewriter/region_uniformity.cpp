// Which of the kernel's values every thread of a block agrees on, which statements therefore run
// once per block, and how each other variable reaches the regions that read it (region_plan.hpp).
//
// A variable is uniform when its initializer is a uniform value, and every statement that may change
// it is a uniform assignment to it (`x = e`, `x += e`, `++x` with e uniform) that can move to the
// start or end of its region without another statement of the region seeing the move: block-level
// for loops' increments count as such. The set starts with every variable and shrinks until it
// holds (each statement that moves out of a region is checked again each round).
#include <algorithm>
#include <functional>
#include <string_view>

#include "rewriter/region_analysis_impl.hpp"

namespace gpulab::rewriter {
namespace {

bool one_of(std::string_view w, std::initializer_list<std::string_view> words) {
  for (std::string_view x : words)
    if (w == x) return true;
  return false;
}

bool is_value_keyword(std::string_view w) {
  return one_of(w, {"sizeof",   "alignof",  "static_cast", "const_cast", "reinterpret_cast",
                    "true",     "false",    "nullptr",     "decltype",   "void",
                    "bool",     "char",     "short",       "int",        "long",
                    "float",    "double",   "signed",      "unsigned",   "auto",
                    "const",    "volatile", "typename",    "template",   "char8_t",
                    "char16_t", "char32_t", "wchar_t"});
}

}  // namespace

bool RegionAnalysis::pure_value(TokenRange r, int for_var, std::string* why) const {
  std::vector<std::size_t> tokens;
  for (std::size_t i = r.first; !r.empty() && i <= r.last; ++i) {
    bool in_barrier = false;
    for (const ValuedBarrier& b : plan_.barriers) {
      if (i == b.call_first && for_var < 0 && !b.warp) {  // a barrier's result is the same in every thread
        i = b.call_last;
        in_barrier = true;
      }
    }
    if (!in_barrier) tokens.push_back(i);
  }
  return pure_tokens(tokens, r.first, for_var, why, 0);
}

bool RegionAnalysis::pure_tokens(const std::vector<std::size_t>& tokens, std::size_t at, int for_var, std::string* why,
                                 int depth) const {
  auto no = [&](std::size_t i, const std::string& what) {
    if (why) *why = what + " (" + where(i) + ")";
    return false;
  };
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::size_t i = tokens[k];
    const TokenKind kind = t_[i].kind;
    if (kind == TokenKind::Number || kind == TokenKind::String || kind == TokenKind::Char) continue;
    if (kind == TokenKind::Punct) {
      if (t_.is_punct(i, '[') || t_.is_punct(i, '{')) return no(i, "it reads memory or builds an object");
      if ((t_.is_punct(i, '*') || t_.is_punct(i, '&')) && is_unary_operator(t_, i) &&
          !(k > 0 && t_.is_punct(tokens[k - 1], '<')) && !(k + 1 < tokens.size() && t_.is_punct(tokens[k + 1], '>'))) {
        return no(i, "it reads memory through a pointer");
      }
      if (t_.is_arrow_head(i)) return no(i, "it reads memory through a pointer");
      if (is_assignment_at(t_, i) || is_increment_at(t_, i)) return no(i, "it changes a variable");
      continue;
    }
    if (!t_.is_identifier(i)) return no(i, "it holds something the rewriter does not read");
    const std::string_view w = t_.text(i);
    if (!t_.is_name(i)) {
      if (is_value_keyword(w)) continue;
      return no(i, "it uses '" + std::string(w) + "'");
    }
    const bool member = i > 0 && (t_.is_punct(i - 1, '.') || (i >= 2 && t_.is_scope_op(i - 2)));
    const bool call = t_.is_punct(i + 1, '(') || (t_.is_punct(i + 1, '<') && [&] {
                        for (const Call& c : calls(t_, TokenRange{i, std::min(i + 64, t_.size() - 1)}))
                          if (c.name == i) return true;
                        return false;
                      }());
    if (t_.is_scope_op(i + 1)) continue;  // a namespace or class qualifier
    if (member && !call) continue;
    if (w == "threadIdx") {
      if (for_var >= 0) continue;
      return no(i, "it reads threadIdx");
    }
    if (one_of(w, {"blockIdx", "blockDim", "gridDim", "warpSize"})) continue;
    if (!member) {
      const int v = resolve_name(w, i >= k_.body_open && i <= k_.body_close ? i : at);
      if (v >= 0) {
        const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
        const bool array = !var.declaration.declarators.empty() && var.declaration.declarators[var.declarator].array;
        const bool shared_value = var.shared && !array;  // a __shared__ scalar's value is memory
        if (!var.lambda && !shared_value && uniform_.count(v) && (for_var < 0 || stable_for(v, for_var))) continue;
        if (for_var >= 0 && v != for_var && !uniform_.count(v) && recomputable_var(v)) continue;
        return no(i, "it reads '" + std::string(w) + "', which differs between threads");
      }
    }
    if (call) {
      // A built-in type's construction is a value; a program's own type may have a constructor
      // that reads threadIdx (or anything else), so building one is not.
      if (is_pure_builtin(w) || is_builtin_type_name(w)) continue;
      if (sym_.types.count(w))
        return no(i, "it constructs a " + std::string(w) + ", whose constructor may differ between threads");
      if (std::find(k_.template_parameters.begin(), k_.template_parameters.end(), w) != k_.template_parameters.end())
        continue;
      if (!sym_.macros.count(w)) return no(i, "it calls " + std::string(w));
    }
    if (member) continue;
    if (std::find(k_.template_parameters.begin(), k_.template_parameters.end(), w) != k_.template_parameters.end())
      continue;
    if (sym_.constants.count(w) || sym_.types.count(w) || is_builtin_type_name(w)) continue;
    if (const auto m = sym_.macros.find(w); m != sym_.macros.end() && depth < 8) {
      std::vector<std::size_t> body;
      for (const std::size_t b : m->second.body) {
        if (t_.is_name(b) && std::find(m->second.parameters.begin(), m->second.parameters.end(), t_.text(b)) !=
                                 m->second.parameters.end()) {
          continue;  // an argument: read where the macro is used
        }
        body.push_back(b);
      }
      if (pure_tokens(body, i, for_var, why, depth + 1)) continue;
      return false;
    }
    if (sym_.mutable_variables.count(w)) return no(i, "it reads the variable '" + std::string(w) + "'");
    return no(i, "it reads '" + std::string(w) + "', which the rewriter cannot see is a constant");
  }
  return true;
}

bool RegionAnalysis::of_program_type(int v) const {
  const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
  if (var.lambda || var.declaration.declarators.empty()) return false;
  const Declaration& d = var.declaration;
  const Declarator& dr = d.declarators[var.declarator];
  for (std::size_t i = dr.tokens.first; !dr.tokens.empty() && i <= dr.tokens.last && i < dr.name; ++i)
    if (t_.is_punct(i, '*')) return false;  // a pointer: no constructor runs
  for (std::size_t i = d.specifiers.first; !d.specifiers.empty() && i <= d.specifiers.last; ++i) {
    if (!t_.is_identifier(i)) continue;
    const std::string_view w = t_.text(i);
    if (is_value_keyword(w) || is_builtin_type_name(w) ||
        one_of(w, {"static", "constexpr", "register", "__shared__", "__device__", "__restrict__", "inline"}))
      continue;
    return true;  // a class of the program, a template parameter, a qualified name: it may construct by code
  }
  return false;
}

bool RegionAnalysis::written_anywhere(int v, const Stmt* except_for) const {
  for (const auto& [s, f] : statement_facts_)
    if (f.writes.count(v)) return true;
  for (const auto& [r, f] : predicate_facts_)
    if (f.writes.count(v)) return true;
  for (const auto& [s, f] : inc_facts_)
    if (s != except_for && f.writes.count(v)) return true;
  return false;
}

// Uniform variable u does not change while `v` lives: it never changes, or it is the variable of a
// block-level for loop whose body declares v, changed only by the loop's increment.
bool RegionAnalysis::stable_for(int u, int v_id) const {
  if (!written_anywhere(u, nullptr)) return true;
  const RegionVar& var = plan_.vars[static_cast<std::size_t>(u)];
  const RegionVar& v = plan_.vars[static_cast<std::size_t>(v_id)];
  for (const Stmt* f : block_fors_) {
    if (var.statement != &f->children[0]) continue;
    const Stmt& body = f->children[1];
    return v.name_token > body.first && v.name_token <= body.last && !written_anywhere(u, f);
  }
  return false;
}

bool RegionAnalysis::recomputable_var(int v) const {
  if (const auto it = recomputable_.find(v); it != recomputable_.end()) return it->second;
  recomputable_[v] = false;  // while it is being checked: a variable that needs itself is not
  const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
  bool ok = !var.parameter && !var.shared && !var.lambda && var.region >= 0 && !var.declaration.is_static &&
            !var.declaration.other_storage && !written_anywhere(v, nullptr);
  for (std::size_t i = var.declaration.specifiers.first; ok && i <= var.declaration.specifiers.last; ++i)
    ok = !t_.is_identifier(i, "volatile");
  const Declarator& d = var.declaration.declarators[var.declarator];
  ok = ok && d.init != Declarator::Init::none && !d.reference && pure_value(initializer_value(d), v, nullptr);
  return recomputable_[v] = ok;
}

}  // namespace gpulab::rewriter
