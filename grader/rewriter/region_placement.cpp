// What moves out of the regions to block level, which variables stay uniform, and how the others
// reach the regions that read them (region_plan.hpp).
//
// A statement of a region moves to block level when all it does is declare uniform variables, or
// assign one a uniform value: to the region's start when no statement before it names what it
// declares or assigns (or writes what it reads), to its end when no statement after it (nor the
// predicate of a barrier that ends the region) does. Either way, every thread sees what it would
// have seen.
#include <algorithm>
#include <string_view>

#include "rewriter/region_analysis_impl.hpp"

namespace gpulab::rewriter {
namespace {

bool intersects(const std::set<int>& a, const std::set<int>& b) {
  for (const int x : a)
    if (b.count(x)) return true;
  return false;
}

}  // namespace

bool RegionAnalysis::uniform_assignment(TokenRange r, int* target) const {
  if (r.empty()) return false;
  std::size_t name = r.first, end = r.last;
  TokenRange value;
  if (is_increment_at(t_, r.first)) {  // ++x
    name = r.first + 2;
  } else if (end >= 2 && is_increment_at(t_, end - 1)) {  // x++
    end -= 2;
  } else {
    std::size_t width = 0;
    if (!is_assignment_at(t_, r.first + 1, &width)) return false;
    end = r.first;
    value = TokenRange{r.first + 1 + width, r.last};
    if (value.empty()) return false;
  }
  if (name != end || !t_.is_name(name)) return false;
  const int v = resolve(name);
  if (v < 0 || !uniform_.count(v) || plan_.vars[static_cast<std::size_t>(v)].shared) return false;
  if (!value.empty() && !pure_value(value, -1, nullptr)) return false;
  if (target) *target = v;
  return true;
}

void RegionAnalysis::hoist_region(Region& region, int index) {
  const std::vector<const Stmt*>& s = region.statements;
  const std::size_t n = s.size();
  enum State { stay, start, end };
  std::vector<State> state(n, stay);
  std::vector<int> target(n, -1);
  std::vector<bool> declaration(n, false);
  auto facts = [&](std::size_t i) -> const Facts& { return statement_facts_.at(s[i]); };
  for (std::size_t i = 0; i < n; ++i) {
    if (s[i]->kind == StmtKind::type_declaration) {
      state[i] = start;
      continue;
    }
    if (s[i]->kind == StmtKind::declaration) {
      const std::optional<Declaration> d = parse_declaration(t_, s[i]->first, s[i]->last - 1);
      bool all_uniform = d.has_value();
      for (std::size_t k = 0; d && k < d->declarators.size(); ++k) {
        const auto v = plan_.declarator_var.find(d->declarators[k].name);
        all_uniform = all_uniform && v != plan_.declarator_var.end() && uniform_.count(v->second);
      }
      declaration[i] = all_uniform;
    } else if (s[i]->kind == StmtKind::expression) {
      uniform_assignment(TokenRange{s[i]->first, s[i]->last - 1}, &target[i]);
    }
    if (!declaration[i] && target[i] < 0) continue;
    bool ok = true;
    for (std::size_t j = 0; j < i && ok; ++j) {
      if (state[j] == start) continue;
      if (declaration[i]) {  // an earlier statement naming it meant another variable of the same name
        const std::optional<Declaration> d = parse_declaration(t_, s[i]->first, s[i]->last - 1);
        for (const Declarator& dr : d->declarators) ok = ok && !facts(j).names.count(t_.text(dr.name));
      } else {
        ok = !facts(j).mentions.count(target[i]);
      }
      ok = ok && !intersects(facts(j).writes, facts(i).mentions);
    }
    if (ok) state[i] = start;
  }
  for (std::size_t i = n; i-- > 0;) {
    if (state[i] != stay || target[i] < 0) continue;
    bool ok = true;
    for (std::size_t j = i + 1; j < n && ok; ++j) {
      if (state[j] == end) continue;
      ok = !facts(j).mentions.count(target[i]) && !intersects(facts(j).writes, facts(i).mentions);
    }
    if (const auto p = predicate_facts_.find(index); ok && p != predicate_facts_.end())
      ok = !p->second.mentions.count(target[i]);
    if (ok) state[i] = end;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (state[i] == stay) continue;
    (state[i] == start ? region.before : region.after).push_back(s[i]);
    plan_.hoisted.insert(s[i]);
  }
}

std::string RegionAnalysis::settle_uniform_variables() {
  for (std::size_t v = 0; v < plan_.vars.size(); ++v) {
    const RegionVar& var = plan_.vars[v];
    const Declaration& d = var.declaration;
    if (!var.parameter && ((d.is_static && !d.is_constexpr) || d.other_storage || (d.is_extern && !d.is_shared)))
      return "the variable '" + var.name + "' (" + where(var.name_token) + ") is static or has a storage class";
    if (!var.lambda) uniform_.insert(static_cast<int>(v));
  }
  for (bool changed = true; changed;) {
    changed = false;
    plan_.hoisted.clear();
    for (std::size_t r = 0; r < plan_.regions.size(); ++r) {
      plan_.regions[r].before.clear();
      plan_.regions[r].after.clear();
      hoist_region(plan_.regions[r], static_cast<int>(r));
    }
    for (const int v : std::set<int>(uniform_)) {
      const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
      if (var.shared || var.declaration.is_constexpr) continue;
      bool ok = true;
      if (!var.parameter) {
        if (var.region >= 0) ok = plan_.hoisted.count(var.statement) > 0;
        const TokenRange init = initializer_value(var.declaration.declarators[var.declarator]);
        // An object of the program's own type runs its constructor (which may read threadIdx), even
        // with uniform arguments: one per thread.
        ok = ok && !of_program_type(v) && (init.empty() || pure_value(init, -1, nullptr));
      }
      for (const Region& region : plan_.regions) {
        for (const Stmt* s : region.statements) {
          if (!ok || !statement_facts_.at(s).writes.count(v)) continue;
          int target = -1;
          ok = plan_.hoisted.count(s) && s->kind == StmtKind::expression &&
               uniform_assignment(TokenRange{s->first, s->last - 1}, &target) && target == v;
        }
      }
      for (const auto& [r, f] : predicate_facts_) ok = ok && !f.writes.count(v);
      if (!ok) {
        uniform_.erase(v);
        changed = true;
      }
    }
  }
  for (const int v : uniform_) {  // a __shared__ or constexpr declaration that could not move out
    const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
    if (var.region >= 0 && !plan_.hoisted.count(var.statement))
      return "the declaration of '" + var.name + "' (" + where(var.name_token) + ") cannot run once per block";
  }
  return "";
}

std::string RegionAnalysis::check_conditions() const {
  std::string why;
  for (const Stmt* s : block_conditions_) {
    const std::string what = s->kind == StmtKind::for_  ? "the loop"
                             : s->kind == StmtKind::if_ ? "the condition"
                                                        : "the loop";
    const std::string at = what + " on " + where(s->first) + " holds a barrier but may differ between threads: ";
    if (s->kind != StmtKind::for_) {
      if (!pure_value(s->cond, -1, &why)) return at + why;
      continue;
    }
    const Stmt& init = s->children[0];
    if (init.kind == StmtKind::declaration) {
      for (const auto& [token, v] : plan_.declarator_var) {
        if (token >= init.first && token <= init.last && !uniform_.count(v))
          return at + "its variable '" + plan_.vars[static_cast<std::size_t>(v)].name + "' does";
      }
    } else if (init.kind == StmtKind::expression &&
               !uniform_assignment(TokenRange{init.first, init.last - 1}, nullptr)) {
      return at + "its first statement is not a uniform assignment";
    }
    if (!s->cond.empty() && !pure_value(s->cond, -1, &why)) return at + why;
    std::size_t part = s->inc.first;
    for (std::size_t i = s->inc.first; !s->inc.empty() && i <= s->inc.last + 1; ++i) {
      if (i <= s->inc.last && (t_.is_punct(i, '(') || t_.is_punct(i, '[') || t_.is_punct(i, '{'))) {
        i = closing_bracket(t_, i).value_or(i);
        continue;
      }
      if (i <= s->inc.last && !t_.is_punct(i, ',')) continue;
      if (!uniform_assignment(TokenRange{part, i - 1}, nullptr))
        return at + "its increment is not a uniform assignment (" + where(part) + ")";
      part = i + 1;
    }
  }
  return "";
}

bool RegionAnalysis::unknown_bound(const Declarator& d) const {  // `int a[] = {...}`
  for (std::size_t k = d.tokens.first; !d.tokens.empty() && k < d.tokens.last; ++k)
    if (t_.is_punct(k, '[') && t_.is_punct(k + 1, ']')) return true;
  return false;
}

std::string RegionAnalysis::place_thread_variables() {
  // needed[r]: the variables that differ between threads and that region r reads.
  std::vector<std::set<int>> needed(plan_.regions.size());
  for (std::size_t r = 0; r < plan_.regions.size(); ++r) {
    for (const Stmt* s : plan_.regions[r].statements) {
      if (plan_.hoisted.count(s)) continue;
      for (const int v : statement_facts_.at(s).mentions)
        if (!uniform_.count(v)) needed[r].insert(v);
    }
    if (const auto p = predicate_facts_.find(static_cast<int>(r)); p != predicate_facts_.end())
      for (const int v : p->second.mentions)
        if (!uniform_.count(v)) needed[r].insert(v);
  }
  for (bool changed = true; changed;) {  // a recomputed variable needs what its initializer reads
    changed = false;
    for (std::size_t r = 0; r < plan_.regions.size(); ++r) {
      for (const int v : std::set<int>(needed[r])) {
        const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
        if (var.parameter || var.region == static_cast<int>(r) || var.lambda || !recomputable_var(v)) continue;
        for (const int u : facts_of(initializer_value(var.declaration.declarators[var.declarator])).mentions) {
          if (!uniform_.count(u) && u != v && needed[r].insert(u).second) changed = true;
        }
      }
    }
  }
  for (std::size_t v = 0; v < plan_.vars.size(); ++v) {
    RegionVar& var = plan_.vars[v];
    if (uniform_.count(static_cast<int>(v))) continue;
    std::vector<int> others;
    for (std::size_t r = 0; r < plan_.regions.size(); ++r)
      if (needed[r].count(static_cast<int>(v)) && var.region != static_cast<int>(r))
        others.push_back(static_cast<int>(r));
    var.kind = VarKind::thread;
    if (others.empty()) continue;
    const Declarator& d = var.declaration.declarators[var.declarator];
    const std::string line =
        var.parameter ? "parameter '" + var.name + "'" : "'" + var.name + "' (" + where(var.name_token) + ")";
    if (var.parameter) {
      var.kind = VarKind::stored;
    } else if (var.lambda) {
      const std::size_t intro = d.init_tokens.first;
      const bool by_reference =
          t_.is_punct(intro + 1, ']') || (t_.is_punct(intro + 1, '&') && t_.is_punct(intro + 2, ']'));
      if (!by_reference || written_anywhere(static_cast<int>(v), nullptr))
        return "the lambda " + line + " is used after a barrier and captures by value";
      var.kind = VarKind::recomputed;
    } else if (recomputable_var(static_cast<int>(v))) {
      var.kind = VarKind::recomputed;
    } else if (!var.declaration.is_auto && !d.reference && !unknown_bound(d)) {
      var.kind = VarKind::stored;
      var.type = declared_type(t_, var.declaration, d);
      plan_.regions[static_cast<std::size_t>(var.region)].declares_stored.push_back(static_cast<int>(v));
    } else {
      return "the variable " + line + " is used again after a barrier and its type is " +
             (d.reference ? "a reference" : "deduced (auto)");
    }
    for (const int r : others) plan_.regions[static_cast<std::size_t>(r)].bindings.push_back(static_cast<int>(v));
  }
  for (std::size_t r = 0; r < plan_.regions.size(); ++r) {
    Region& region = plan_.regions[r];
    std::sort(region.bindings.begin(), region.bindings.end(), [&](int a, int b) {
      return plan_.vars[static_cast<std::size_t>(a)].name_token < plan_.vars[static_cast<std::size_t>(b)].name_token;
    });
    for (const Stmt* s : region.statements)
      if (!plan_.hoisted.count(s)) region.call_outs |= statement_facts_.at(s).calls_out;
    if (const auto p = predicate_facts_.find(static_cast<int>(r)); p != predicate_facts_.end())
      region.call_outs |= p->second.calls_out;
  }
  plan_.shadow_block_values = !has_captureless_lambda_;
  return "";
}

}  // namespace gpulab::rewriter
