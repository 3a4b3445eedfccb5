// The region analysis's variables (the kernel's parameters and the variables declared in its
// block-level code) and, for each piece of the kernel, which of them it names and which it may
// change. A name is resolved as C++ resolves it in nested blocks: to the latest declaration of it
// that is visible there. Names declared inside a plain statement are not followed; an occurrence of
// one counts for the outer variable of the same name, which only ever adds reads and writes.
#include <string_view>

#include "rewriter/region_analysis_impl.hpp"

namespace gpulab::rewriter {
namespace {

bool one_of(std::string_view w, std::initializer_list<std::string_view> words) {
  for (std::string_view x : words)
    if (w == x) return true;
  return false;
}

// Callees known to take their arguments by value (or not to keep a reference to them).
bool takes_values(std::string_view name) {
  return is_pure_builtin(name) ||
         one_of(name, {"printf",      "sinf",       "cosf",      "tanf",      "expf",      "exp2f",     "logf",
                       "log10f",      "powf",       "fmaf",      "roundf",    "truncf",    "sin",       "cos",
                       "tan",         "exp",        "log",       "log10",     "pow",       "fma",       "round",
                       "trunc",       "__expf",     "__logf",    "__sinf",    "__cosf",    "__powf",    "__fdividef",
                       "__saturatef", "__fmaf_rn",  "__fadd_rn", "__fmul_rn", "atomicAdd", "atomicSub", "atomicMin",
                       "atomicMax",   "atomicExch", "atomicCAS", "atomicAnd", "atomicOr",  "atomicXor", "atomicInc",
                       "atomicDec",   "__ldg",      "assert"});
}

}  // namespace

void RegionAnalysis::add_declaration_vars(const Stmt& s, int region, TokenRange scope) {
  const std::optional<Declaration> d = parse_declaration(t_, s.first, s.last - 1);
  if (!d) return;
  for (std::size_t i = 0; i < d->declarators.size(); ++i) {
    const Declarator& dr = d->declarators[i];
    RegionVar v;
    v.name = std::string(t_.text(dr.name));
    v.name_token = dr.name;
    v.statement = &s;
    v.declarator = i;
    v.declaration = *d;
    v.region = region;
    v.shared = d->is_shared;
    if (dr.init == Declarator::Init::copy && t_.is_punct(dr.init_tokens.first, '[')) {
      for (const Lambda& l : lambdas(t_, dr.init_tokens))
        v.lambda |= l.introducer_open == dr.init_tokens.first && l.body_close == dr.init_tokens.last;
    }
    const int id = static_cast<int>(plan_.vars.size());
    plan_.vars.push_back(std::move(v));
    plan_.declarator_var[dr.name] = id;
    vars_by_name_[plan_.vars.back().name].push_back(id);
    var_scope_[id] = scope;
  }
}

void RegionAnalysis::collect_variables() {
  // Parameters: visible in the whole body.
  const TokenRange body{k_.body_open, k_.body_close};
  std::size_t first = k_.params_open + 1;
  for (std::size_t i = first; i <= k_.params_close; ++i) {
    if (t_.is_punct(i, '(') || t_.is_punct(i, '[') || t_.is_punct(i, '{')) {
      i = closing_bracket(t_, i).value_or(i);
      continue;
    }
    if (!t_.is_punct(i, ',') && i != k_.params_close) continue;
    if (i > first) {
      if (const std::optional<Declaration> d = parse_declaration(t_, first, i - 1); d && d->declarators.size() == 1) {
        RegionVar v;
        v.name = std::string(t_.text(d->declarators[0].name));
        v.name_token = d->declarators[0].name;
        v.parameter = true;
        v.declaration = *d;
        const int id = static_cast<int>(plan_.vars.size());
        plan_.vars.push_back(std::move(v));
        vars_by_name_[plan_.vars.back().name].push_back(id);
        var_scope_[id] = body;
      }
    }
    first = i + 1;
  }
  // Declarations in regions (visible to the end of their sequence) and in block-level for loops.
  for (std::size_t r = 0; r < plan_.regions.size(); ++r) {
    const Stmt* key = region_sequence_[static_cast<int>(r)];
    for (const Stmt* s : plan_.regions[r].statements) {
      if (s->kind == StmtKind::declaration)
        add_declaration_vars(*s, static_cast<int>(r), TokenRange{key->first, key->last});
    }
  }
  for (const Stmt* f : block_fors_) {
    if (f->children[0].kind == StmtKind::declaration)
      add_declaration_vars(f->children[0], -1, TokenRange{f->first, f->last});
  }
}

int RegionAnalysis::resolve_name(std::string_view name, std::size_t token) const {
  const auto it = vars_by_name_.find(name);
  if (it == vars_by_name_.end()) return -1;
  int best = -1;
  for (const int id : it->second) {
    const RegionVar& v = plan_.vars[static_cast<std::size_t>(id)];
    const TokenRange scope = var_scope_.at(id);
    if (token < scope.first || token > scope.last) continue;
    if (!v.parameter && v.name_token > token) continue;
    if (best < 0 || v.name_token > plan_.vars[static_cast<std::size_t>(best)].name_token) best = id;
  }
  return best;
}

bool RegionAnalysis::is_pointer(const RegionVar& v) const {
  if (v.declaration.declarators.empty()) return false;
  const Declarator& dr = v.declaration.declarators[v.declarator];
  if (dr.array) return false;
  for (std::size_t i = dr.tokens.first; i < dr.name; ++i)
    if (t_.is_punct(i, '*')) return true;
  return false;
}

bool RegionAnalysis::call_may_modify(std::size_t open) const {
  std::size_t callee = open - 1;
  if (t_.is_punct(callee, '>')) {  // f<...>(x): the name before the template arguments
    int depth = 0;
    for (std::size_t j = callee + 1; j-- > k_.body_open;) {
      if (t_.is_punct(j, '>')) ++depth;
      if (t_.is_punct(j, '<') && --depth == 0) {
        callee = j - 1;
        break;
      }
    }
  }
  if (!t_.is_identifier(callee)) return true;
  const std::string_view name = t_.text(callee);
  if (one_of(name, {"if", "while", "for", "switch", "return", "sizeof", "alignof", "decltype", "static_cast",
                    "reinterpret_cast", "const_cast", "typeid", "noexcept", "alignas"})) {
    return false;
  }
  if (takes_values(name) || is_builtin_type_name(name) || sym_.types.count(name)) return false;
  for (const std::string& p : k_.template_parameters)
    if (p == name) return false;
  const auto f = sym_.functions.find(name);
  if (f == sym_.functions.end()) return true;
  for (const FunctionSymbol& def : f->second)
    if (def.reference_parameter) return true;
  return false;
}

const Facts& RegionAnalysis::lambda_facts(int v) const {
  if (const auto it = lambda_facts_.find(v); it != lambda_facts_.end()) return it->second;
  static const Facts none;
  if (lambda_in_progress_.count(v)) return none;
  lambda_in_progress_.insert(v);
  const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
  Facts f = facts_of(var.declaration.declarators[var.declarator].init_tokens);
  lambda_in_progress_.erase(v);
  return lambda_facts_[v] = std::move(f);
}

Facts RegionAnalysis::facts_of(TokenRange r) const {
  Facts f;
  if (r.empty()) return f;
  for (const Call& c : calls(t_, r)) {
    const std::string_view name = t_.text(c.name);
    // (A program's own type, constructed: its constructor may read the thread's indices.)
    if (!is_pure_builtin(name) && !is_builtin_type_name(name)) f.calls_out = true;
  }
  for (std::size_t i = r.first; i <= r.last; ++i)
    f.calls_out |= t_.is_identifier(i, "asm") || t_.is_identifier(i, "__asm__");
  for (const Occurrence& o : name_occurrences(t_, r)) {
    const std::string_view name = t_.text(o.token);
    f.names.insert(std::string(name));
    if (const auto d = plan_.declarator_var.find(o.token); d != plan_.declarator_var.end()) {
      // A declarator's own name: an object of a type with constructors runs one here.
      f.calls_out |= of_program_type(d->second);
      continue;
    }
    const int v = resolve(o.token);
    if (v < 0) {
      const auto m = sym_.macros.find(name);
      if (m == sym_.macros.end() || m->second.body.empty()) continue;
      // A macro's body may name the kernel's variables: they count as named (and changed) here.
      for (const std::size_t b : m->second.body) {
        if (!t_.is_name(b)) continue;
        const auto same = vars_by_name_.find(t_.text(b));
        if (same == vars_by_name_.end()) continue;
        for (const int id : same->second) {
          f.mentions.insert(id);
          f.writes.insert(id);
        }
      }
      f.calls_out = true;
      continue;
    }
    const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
    f.mentions.insert(v);
    f.calls_out |= of_program_type(v);  // its operators and conversions may be the program's code
    if (var.lambda) {
      const Facts& l = lambda_facts(v);
      f.mentions.insert(l.mentions.begin(), l.mentions.end());
      f.writes.insert(l.writes.begin(), l.writes.end());
      f.names.insert(l.names.begin(), l.names.end());
      f.calls_out = true;
    }
    const bool array = !var.declaration.declarators.empty() && var.declaration.declarators[var.declarator].array;
    bool write = false;
    switch (o.use) {
      case Use::read: write = array && !o.subscripted && !var.shared; break;
      case Use::assign:
      case Use::increment:
      case Use::address:
      case Use::member_call: write = !block_groups_.count(var.name); break;  // a thread block's are queries
      case Use::argument: write = call_may_modify(o.call_open) || (array && !var.shared); break;
      case Use::through: write = !is_pointer(var) && !var.shared; break;
    }
    if (write) f.writes.insert(v);
  }
  // `T& r = x;`: x may be changed through r.
  const std::size_t first = r.first;
  if (t_.is_name(first) || t_.is_scope_op(first)) {
    if (const std::optional<Declaration> d =
            parse_declaration(t_, first, t_.is_punct(r.last, ';') ? r.last - 1 : r.last)) {
      for (const Declarator& dr : d->declarators) {
        if (!dr.reference || dr.init != Declarator::Init::copy) continue;
        for (std::size_t i = dr.init_tokens.first; i <= dr.init_tokens.last; ++i)
          if (const int v = t_.is_name(i) ? resolve(i) : -1; v >= 0) f.writes.insert(v);
      }
    }
  }
  return f;
}

void RegionAnalysis::compute_statement_facts() {
  for (std::size_t r = 0; r < plan_.regions.size(); ++r) {
    const Region& region = plan_.regions[r];
    for (const Stmt* s : region.statements) {
      const auto b = plan_.after_barrier.find(s);
      if (b == plan_.after_barrier.end()) {
        statement_facts_[s] = facts_of(TokenRange{s->first, s->last});
        continue;
      }
      // The statement that takes a barrier's result: the call itself belongs to the barrier.
      const ValuedBarrier& vb = plan_.barriers[static_cast<std::size_t>(b->second)];
      Facts f = facts_of(TokenRange{s->first, vb.call_first - 1});
      const Facts rest = facts_of(TokenRange{vb.call_last + 1, s->last});
      f.mentions.insert(rest.mentions.begin(), rest.mentions.end());
      f.writes.insert(rest.writes.begin(), rest.writes.end());
      f.names.insert(rest.names.begin(), rest.names.end());
      if (vb.warp && !vb.predicate.empty()) {  // a shuffle's result has its value's type: named there
        const Facts value = facts_of(vb.predicate);
        f.mentions.insert(value.mentions.begin(), value.mentions.end());
        f.names.insert(value.names.begin(), value.names.end());
      }
      statement_facts_[s] = std::move(f);
    }
    if (region.predicate_of >= 0) {
      const ValuedBarrier& vb = plan_.barriers[static_cast<std::size_t>(region.predicate_of)];
      Facts f = facts_of(vb.predicate);
      if (!vb.lane.empty()) {  // a shuffle's lane or delta, also each thread's own
        const Facts lane = facts_of(vb.lane);
        f.mentions.insert(lane.mentions.begin(), lane.mentions.end());
        f.writes.insert(lane.writes.begin(), lane.writes.end());
        f.names.insert(lane.names.begin(), lane.names.end());
        f.calls_out = f.calls_out || lane.calls_out;
      }
      predicate_facts_[static_cast<int>(r)] = std::move(f);
    }
  }
  for (const Stmt* s : block_conditions_) {
    statement_facts_[s] = facts_of(s->cond);
    if (s->kind == StmtKind::for_) {
      statement_facts_[&s->children[0]] = facts_of(TokenRange{s->children[0].first, s->children[0].last});
      inc_facts_[s] = facts_of(s->inc);
    }
  }
}

}  // namespace gpulab::rewriter
