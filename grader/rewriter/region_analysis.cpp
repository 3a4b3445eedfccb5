// The region analysis's entry point, its checks on the kernel's text, and the split of the kernel's
// statements into block-level statements and regions (region_analysis.hpp, region_plan.hpp).
#include "rewriter/region_analysis.hpp"

#include <functional>

#include "rewriter/region_analysis_impl.hpp"

namespace gpulab::rewriter {

std::string RegionAnalysis::where(std::size_t token) const { return "line " + std::to_string(t_[token].line); }

std::string RegionAnalysis::run() {
  collect_block_groups();
  if (std::string why = check_kernel_text(); !why.empty()) return why;
  std::vector<const Stmt*> top;
  for (const Stmt& c : body_.body.children) top.push_back(&c);
  if (!build_sequence(body_.body, top, false) || !failure_.empty()) return failure_;
  collect_variables();
  compute_statement_facts();
  if (std::string why = settle_uniform_variables(); !why.empty()) return why;
  if (std::string why = check_conditions(); !why.empty()) return why;
  if (std::string why = check_warp_arguments(); !why.empty()) return why;
  if (std::string why = place_thread_variables(); !why.empty()) return why;
  shape_region_loops();
  return "";
}

std::string RegionAnalysis::check_kernel_text() {
  if (body_.has_conditional_directives) return "its body holds a conditional directive (#if, #ifdef, #define)";
  if (!body_.complete)
    return "its body holds a statement the rewriter does not take apart (try, `if (init; cond)`, a "
           "declaration in a condition, a structured binding)";
  const TokenRange all{k_.body_open + 1, k_.body_close - 1};
  for (const Lambda& l : lambdas(t_, all)) {
    has_captureless_lambda_ |= l.captures_nothing;
    for (std::size_t i = l.body_open; i <= l.body_close; ++i) {
      if (block_sync_at(i))
        return (is_region_warp_collective(t_.text(i)) ? "the warp collective " + std::string(t_.text(i))
                                                      : std::string("the barrier")) +
               " on " + where(i) + " is in a lambda";
    }
  }
  for (std::size_t i = all.first; i <= all.last; ++i) {
    if (t_.directive(i) != 0) continue;
    if (t_.is_punct(i, '<') && t_.punct_run(i, '<') >= 3) return "it launches a kernel (" + where(i) + ")";
    if (!t_.is_identifier(i)) continue;
    const std::string_view w = t_.text(i);
    if (w == "goto") return "it uses goto (" + where(i) + ")";
    if (is_block_barrier(w) || block_sync_at(i)) continue;
    // Cooperative groups' thread block is a handle on the block: its sync is a barrier (above).
    if (w == "thread_block" || w == "this_thread_block" || w == "cooperative_groups") continue;
    if (w == "__barrier_sync" || w == "__barrier_sync_count")
      return "the named barrier " + std::string(w) + " on " + where(i) + " synchronises part of the block";
    if (is_sync_builtin(w))
      return "the warp collective " + std::string(w) + " on " + where(i) + " needs the warp's lanes";
    const bool member_call = i > 0 && t_.is_punct(i + 1, '(') &&
                             (t_.is_punct(i - 1, '.') || t_.is_arrow_head(i - 1) || t_.is_punct(i - 1, ':'));
    if (member_call && t_.is_punct(i - 1, '.') && i >= 2 && is_block_group(i - 2)) continue;  // cta.thread_rank()
    if (is_group_wait_name(w) || (member_call && is_group_wait_member(w)))
      return std::string(w) + " on " + where(i) + " is a wait the regions do not model";
    if (sym_.synchronising.count(w)) return "it calls " + std::string(w) + " on " + where(i) + ", which synchronises";
    if (w == "asm" || w == "__asm__" || w == "__asm") {
      for (std::size_t j = i + 1; j <= all.last && !t_.is_punct(j, ';'); ++j) {
        if (t_[j].kind != TokenKind::String) continue;
        for (std::string_view ptx : {"bar.", "barrier", "shfl", "vote", "activemask", "match."})
          if (t_.text(j).find(ptx) != std::string_view::npos) return "inline PTX on " + where(i) + " synchronises";
      }
    }
  }
  std::function<std::string(const Stmt&)> labels = [&](const Stmt& s) -> std::string {
    if (s.kind == StmtKind::label && !t_.is_identifier(s.first, "case") && !t_.is_identifier(s.first, "default"))
      return "it has a label (" + where(s.first) + ")";
    for (const Stmt& c : s.children)
      if (std::string why = labels(c); !why.empty()) return why;
    return "";
  };
  return labels(body_.body);
}

bool RegionAnalysis::contains_barrier(const Stmt& s) const {
  for (std::size_t i = s.first; i <= s.last; ++i)
    if (block_sync_at(i)) return true;
  return false;
}

bool RegionAnalysis::escapes(const Stmt& s, bool barrier_after) const {
  std::function<bool(const Stmt&, bool, bool)> walk = [&](const Stmt& x, bool in_loop, bool in_switch) {
    if (x.kind == StmtKind::return_) return barrier_after;
    if (x.kind == StmtKind::break_) return !in_loop && !in_switch;
    if (x.kind == StmtKind::continue_) return !in_loop;
    const bool loop = x.kind == StmtKind::for_ || x.kind == StmtKind::while_ || x.kind == StmtKind::do_ ||
                      x.kind == StmtKind::range_for;
    for (std::size_t i = 0; i < x.children.size(); ++i) {
      const bool body = !(x.kind == StmtKind::for_ && i == 0);  // a for's init is outside its loop
      if (walk(x.children[i], in_loop || (loop && body), in_switch || x.kind == StmtKind::switch_)) return true;
    }
    return false;
  };
  return walk(s, false, false);
}

void RegionAnalysis::collect_thread_returns(const Stmt& s) {
  if (s.kind == StmtKind::return_) plan_.thread_returns.insert(s.first);
  for (const Stmt& c : s.children) collect_thread_returns(c);
}

int RegionAnalysis::region_for(int& current) {
  if (current < 0) {
    current = static_cast<int>(plan_.regions.size());
    plan_.regions.emplace_back();
  }
  return current;
}

// `__syncthreads();`, `__syncthreads_count(p);`, `x = __syncthreads_or(p);`, `int c = __syncthreads_and(p);`:
// records the barrier and gives the predicate to the region before it (`region`, made if needed).
bool RegionAnalysis::valued_barrier(const Stmt& s, int& region) {
  if (warp_statement(s, region)) return true;  // a shuffle, vote or __syncwarp (region_warps.cpp)
  if (!failure_.empty()) return false;
  if (s.kind == StmtKind::expression) {  // a thread block's sync as a statement: a plain barrier
    for (std::size_t i = s.first; i < s.last; ++i) {
      const std::optional<std::size_t> close = t_.is_identifier(i, "sync") ? block_sync_at(i) : std::nullopt;
      if (close && *close + 1 == s.last && block_sync_start(i) == s.first) return true;
    }
  }
  std::size_t call = s.first;
  if (s.kind == StmtKind::declaration) {
    const std::optional<Declaration> d = parse_declaration(t_, s.first, s.last - 1);
    if (!d || d->declarators.size() != 1 || d->declarators[0].init != Declarator::Init::copy) return false;
    call = d->declarators[0].init_tokens.first;
  } else if (s.kind == StmtKind::expression) {
    std::size_t width = 0;
    if (t_.is_name(s.first) && is_assignment_at(t_, s.first + 1, &width) && width == 1) call = s.first + 2;
  } else {
    return false;
  }
  if (!t_.is_identifier(call) || !is_block_barrier(t_.text(call)) || !t_.is_punct(call + 1, '(')) return false;
  const std::optional<std::size_t> close = closing_bracket(t_, call + 1);
  if (!close || *close + 1 != s.last) return false;
  const std::string_view name = t_.text(call);
  if (name == "__syncthreads") {
    if (call != s.first || *close != call + 2) return false;
    return true;  // a plain barrier: nothing before or after it
  }
  ValuedBarrier b;
  b.call_first = call;
  b.call_last = *close;
  b.predicate = TokenRange{call + 2, *close - 1};
  b.combine = name == "__syncthreads_count" ? "count" : name == "__syncthreads_and" ? "all" : "any";
  const int id = static_cast<int>(plan_.barriers.size());
  plan_.barriers.push_back(b);
  plan_.barrier_of[&s] = id;
  plan_.regions[static_cast<std::size_t>(region_for(region))].predicate_of = id;
  region_sequence_[region] = sequence_key_;
  return true;
}

bool RegionAnalysis::build_sequence(const Stmt& key, const std::vector<const Stmt*>& children, bool barrier_after) {
  std::vector<SequenceItem> items;
  sequence_key_ = &key;
  int current = -1;
  auto close_region = [&] {
    if (current >= 0) items.push_back(SequenceItem{nullptr, current});
    current = -1;
  };
  for (std::size_t i = 0; i < children.size(); ++i) {
    const Stmt& c = *children[i];
    bool after = barrier_after;
    for (std::size_t j = i + 1; j < children.size() && !after; ++j) after = contains_barrier(*children[j]);
    if (!contains_barrier(c) && !escapes(c, after)) {
      plan_.regions[static_cast<std::size_t>(region_for(current))].statements.push_back(&c);
      region_sequence_[current] = &key;
      if (!after) {
        const std::size_t before = plan_.thread_returns.size();
        collect_thread_returns(c);
        if (plan_.thread_returns.size() != before) plan_.regions[static_cast<std::size_t>(current)].returns = true;
      }
      continue;
    }
    if ((c.kind == StmtKind::expression || c.kind == StmtKind::declaration || c.kind == StmtKind::if_) &&
        valued_barrier(c, current)) {
      close_region();
      items.push_back(SequenceItem{&c, -1});
      plan_.block_level.insert(&c);
      const auto b = plan_.barrier_of.find(&c);
      const ValuedBarrier* vb =
          b == plan_.barrier_of.end() ? nullptr : &plan_.barriers[static_cast<std::size_t>(b->second)];
      if (vb && (vb->warp ? vb->result_used
                          : (c.kind == StmtKind::declaration || t_.is_name(c.first)) &&
                                !is_block_barrier(
                                    t_.text(c.first)))) {  // `v = __syncthreads_count(p);`: v's statement goes on
        plan_.after_barrier[&c] = plan_.barrier_of[&c];
        plan_.regions[static_cast<std::size_t>(region_for(current))].statements.push_back(&c);
        region_sequence_[current] = &key;
      }
      continue;
    }
    close_region();
    if (!block_level_statement(c, after)) return false;
    sequence_key_ = &key;
    items.push_back(SequenceItem{&c, -1});
  }
  close_region();
  plan_.sequences[&key] = std::move(items);
  return true;
}

bool RegionAnalysis::block_level_statement(const Stmt& s, bool barrier_after) {
  plan_.block_level.insert(&s);
  auto branch = [&](const Stmt& b, bool after) {
    std::vector<const Stmt*> children;
    if (b.kind == StmtKind::compound) {
      for (const Stmt& c : b.children) children.push_back(&c);
    } else {
      children.push_back(&b);
    }
    return build_sequence(b, children, after);
  };
  const bool loop_after = barrier_after || contains_barrier(s);
  switch (s.kind) {
    case StmtKind::compound: return branch(s, barrier_after);
    case StmtKind::if_:
      block_conditions_.push_back(&s);
      for (const Stmt& b : s.children)
        if (!branch(b, barrier_after)) return false;
      return true;
    case StmtKind::for_:
      block_conditions_.push_back(&s);
      block_fors_.push_back(&s);
      if (s.children[0].kind != StmtKind::declaration && s.children[0].kind != StmtKind::expression &&
          s.children[0].kind != StmtKind::empty) {
        return fail("the loop on " + where(s.first) + " has an init-statement the rewriter does not read");
      }
      plan_.block_level.insert(&s.children[0]);
      return branch(s.children[1], loop_after);
    case StmtKind::while_:
    case StmtKind::do_: block_conditions_.push_back(&s); return branch(s.children[0], loop_after);
    case StmtKind::return_:
      if (!s.cond.empty()) return fail("the return on " + where(s.first) + " returns a value");
      return true;
    case StmtKind::break_:
    case StmtKind::continue_: return true;
    case StmtKind::switch_: return fail("the barrier on " + where(s.first) + " is inside a switch");
    case StmtKind::range_for: return fail("the barrier on " + where(s.first) + " is inside a range-based for loop");
    default: {
      std::string what = "the barrier";
      for (std::size_t i = s.first; i <= s.last; ++i) {
        if (!block_sync_at(i)) continue;
        if (is_region_warp_collective(t_.text(i))) what = "the warp collective " + std::string(t_.text(i));
        return fail(what + " on " + where(i) +
                    " is part of an expression; write it as a statement of its own (or as the whole right-hand "
                    "side)");
      }
      return fail(what + " on " + where(s.first) + " is part of an expression");
    }
  }
}

RegionDecision analyse_kernel(const CodeTokens& t, const ProgramSymbols& symbols, const KernelSource& kernel) {
  RegionDecision d;
  bool synchronises = false;
  for (std::size_t i = kernel.body_open; i <= kernel.body_close && !synchronises; ++i) {
    if (!t.is_identifier(i)) continue;
    const std::string_view w = t.text(i);
    synchronises = is_sync_builtin(w) || is_group_wait_name(w) || symbols.synchronising.count(w) || w == "asm" ||
                   w == "__asm__" || (is_group_wait_member(w) && t.is_punct(i + 1, '('));
  }
  if (!synchronises) {
    d.reason = "no barriers: each thread runs as a plain call";
    return d;
  }
  d.kind = RegionDecision::Kind::fibers;
  std::optional<FunctionBody> body = read_function_body(t, kernel.body_open);
  if (!body) {
    d.reason = "the rewriter could not read its body";
    return d;
  }
  d.body = std::make_unique<FunctionBody>(std::move(*body));
  RegionAnalysis analysis(t, symbols, kernel, *d.body, d.plan);
  d.reason = analysis.run();
  if (!d.reason.empty()) return d;
  if (d.plan.barriers.empty() && !analysis.any_barrier()) {
    d.kind = RegionDecision::Kind::plain_calls;
    d.reason = "no barriers: each thread runs as a plain call";
    return d;
  }
  d.kind = RegionDecision::Kind::regions;
  d.reason = "regions between barriers run as loops over the block's threads";
  return d;
}

}  // namespace gpulab::rewriter
