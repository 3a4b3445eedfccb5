// Writes the region form of a kernel (region_emit.hpp) from its plan: the block-level statements
// as they are, each region as a loop over the threads (GPULAB_EMU_EACH_THREAD, gpulab/emu/
// thread_regions.hpp) whose body first binds or recomputes the variables earlier regions left,
// then runs the region's statements.
#include "rewriter/region_emit.hpp"

#include <algorithm>
#include <map>

#include "rewriter/expression_scan.hpp"

namespace gpulab::rewriter {
namespace {

class RegionWriter {
 public:
  RegionWriter(const CodeTokens& t, const KernelSource& k, const RegionDecision& d, const RegionEmitContext& c)
      : t_(t), k_(k), plan_(d.plan), body_(*d.body), c_(c) {
    for (const Lambda& l : lambdas(t_, TokenRange{k.body_open + 1, k.body_close - 1}))
      lambda_bodies_.push_back(TokenRange{l.body_open, l.body_close});
  }

  SourceEdit write() {
    text(std::string(" if (::gpulab::emu::RegionBlock gpulab_rb; gpulab_rb.begin(") +
         (plan_.warp_collectives ? "true" : "") + ")) {");
    if (plan_.shadow_block_values) {
      text(
          " const ::gpulab::emu::BlockContext gpulab_block_copy = *::gpulab_emu_block;"
          " [[maybe_unused]] const ::gpulab::emu::BlockContext* const gpulab_emu_block = &gpulab_block_copy;"
          " [[maybe_unused]] const ::dim3 blockDim = ::blockDim; [[maybe_unused]] const ::dim3 gridDim = ::gridDim;");
    }
    for (std::size_t v = 0; v < plan_.vars.size(); ++v) {
      const RegionVar& var = plan_.vars[v];
      if (!var.parameter || var.kind != VarKind::stored) continue;
      const std::string id = std::to_string(v);
      text(" using gpulab_t_" + id + " = ::gpulab::emu::region_value_t<decltype(" + var.name + ")>; gpulab_t_" + id +
           "* const gpulab_s_" + id + " = gpulab_rb.storage<gpulab_t_" + id +
           ">(); for (unsigned gpulab_i = 0; gpulab_i < "
           "gpulab_rb.threads(); ++gpulab_i) ::new (::gpulab::emu::region_slot(gpulab_s_" +
           id + " + gpulab_i)) gpulab_t_" + id + "(" + var.name + ");");
    }
    sequence(body_.body);
    text(" return; }\n#line " + std::to_string(c_.line_of(k_.body_open)) + " \"" + c_.file_literal + "\"\n");
    SourceEdit e;
    e.begin = e.end = t_[k_.body_open].end;
    e.parts = std::move(parts_);
    return e;
  }

 private:
  void text(const std::string& s) {
    if (!parts_.empty() && !parts_.back().from_source) {
      parts_.back().text += s;
    } else {
      parts_.push_back(EditPart::literal(s));
    }
  }
  // The copy that follows starts at `token`'s line and column in the student's file.
  void line(std::size_t token) {
    text("\n#line " + std::to_string(c_.line_of(token)) + " \"" + c_.file_literal + "\"\n" +
         std::string(static_cast<std::size_t>(std::max(t_[token].column - 1, 0)), ' '));
  }
  bool in_lambda(std::size_t i) const {
    return std::any_of(lambda_bodies_.begin(), lambda_bodies_.end(),
                       [&](TokenRange r) { return i > r.first && i < r.last; });
  }
  bool in_other_edit(std::size_t i) const {
    if (!c_.other_edits) return false;
    return std::any_of(c_.other_edits->begin(), c_.other_edits->end(),
                       [&](const SourceEdit& e) { return t_[i].begin >= e.begin && t_[i].begin < e.end; });
  }

  // Tokens first..last as written, with what a region changes: threadIdx is the loop's thread, a
  // return ends the thread, a barrier's result is read from block level.
  void copy(std::size_t first, std::size_t last, int region) {
    std::map<std::size_t, std::pair<std::size_t, std::string>> swaps;  // first token -> (last token, text)
    for (std::size_t i = first; i <= last; ++i) {
      if (region >= 0 && t_.is_identifier(i, "threadIdx") && t_.directive(i) == 0 && !in_lambda(i) && !in_other_edit(i))
        swaps[i] = {i, "gpulab_tid"};
      if (region >= 0 && plan_.thread_returns.count(i) && !in_other_edit(i)) {
        const std::optional<std::size_t> end = statement_end(t_, i, last + 1);
        if (end) swaps[i] = {*end, "goto gpulab_done_" + std::to_string(region) + ";"};
      }
      for (std::size_t b = 0; b < plan_.barriers.size(); ++b)
        if (plan_.barriers[b].call_first == i)
          swaps[i] = {plan_.barriers[b].call_last,
                      (plan_.barriers[b].warp ? warp_result(b, region) : "gpulab_sync_" + std::to_string(b)) +
                          t_.layout_of(t_[i].begin, t_[plan_.barriers[b].call_last].end, false)};  // its lines
    }
    std::size_t at = t_[first].begin;
    for (const auto& [from, swap] : swaps) {
      if (t_[from].begin < at) continue;
      parts_.push_back(EditPart::source(at, t_[from].begin));
      text(swap.second);
      at = t_[swap.first].end;
    }
    parts_.push_back(EditPart::source(at, t_[last].end));
  }
  void copy_statement(const Stmt& s, int region) {
    line(s.lead);
    copy(s.lead, s.last, region);
  }
  // A declaration that a later region reads again may go unused in its own region.
  void copy_declaration_maybe_unused(const Stmt& s, int region) {
    line(s.first);
    text("[[maybe_unused]] ");
    copy(s.first, s.last, region);
  }

  void sequence(const Stmt& key) {
    text(" {");
    bool storage = false;
    for (const SequenceItem& item : plan_.sequences.at(&key)) {
      if (item.region < 0) continue;
      const Region& r = plan_.regions[static_cast<std::size_t>(item.region)];
      storage |= !r.declares_stored.empty() || r.predicate_of >= 0;
    }
    if (storage) text(" ::gpulab::emu::RegionScope gpulab_scope_" + std::to_string(key.first) + "(gpulab_rb);");
    for (const SequenceItem& item : plan_.sequences.at(&key)) {
      if (item.region >= 0) {
        region(item.region);
      } else if (item.statement == &key && key.kind != StmtKind::compound) {
        block_statement(key);
      } else {
        block_statement(*item.statement);
      }
    }
    text(" }");
  }

  void branch(const Stmt& s) { sequence(s); }

  // Tokens of r as text, threadIdx read as the loop's thread (for a type named in a region).
  std::string region_text(TokenRange r) const {
    std::string out;
    for (std::size_t i = r.first; !r.empty() && i <= r.last; ++i)
      out += (t_.is_identifier(i, "threadIdx") ? std::string("gpulab_tid") : std::string(t_.text(i))) + " ";
    return out;
  }
  // What replaces warp collective b in the region after it: the thread's result, as the type the
  // call returns (a shuffle's: its value's, deduced as the template deduces it).
  std::string warp_result(std::size_t b, int region) const {
    const ValuedBarrier& vb = plan_.barriers[b];
    const std::string slot = "gpulab_sync_" + std::to_string(b) + "[gpulab_r]";
    if (region < 0) return "0";  // not reached: a warp collective's statement runs in a region
    if (vb.combine == "ballot") return "static_cast<unsigned>(" + slot + ")";
    if (vb.combine == "any" || vb.combine == "all") return "static_cast<int>(" + slot + ")";
    return "::gpulab::emu::warp_value<decltype(::gpulab::emu::warp_deduced(" + region_text(vb.predicate) + "))>(" +
           slot + ")";
  }
  // At block level, once every thread has left its value: the runtime checks the mask and width as
  // the fibers do and works out each thread's result (gpulab/emu/thread_regions.hpp).
  void warp_exchange(const Stmt& s, int id) {
    const ValuedBarrier& vb = plan_.barriers[static_cast<std::size_t>(id)];
    const std::string n = std::to_string(id);
    text(" gpulab_rb.barrier();");
    if (vb.result_used)
      text(" unsigned long long* const gpulab_sync_" + n + " = gpulab_rb.storage<unsigned long long>();");
    text(" gpulab_rb.warp(::gpulab::emu::WarpOp::" + vb.combine + ", static_cast<unsigned>(");
    if (vb.mask.empty()) text("0xffffffffu");
    copy_range(vb.mask);
    text("), static_cast<int>(");
    if (vb.width.empty()) text("32");
    copy_range(vb.width);
    text("), " + (vb.predicate.empty() ? std::string("nullptr") : "gpulab_p_" + n) + ", " +
         (vb.lane.empty() ? std::string("nullptr") : "gpulab_l_" + n) + ", " +
         (vb.result_used ? "gpulab_sync_" + n : std::string("nullptr")) + ", \"" + c_.file_literal + "\", " +
         std::to_string(c_.line_of(vb.call_first)) + ");");
    (void)s;
  }

  void block_statement(const Stmt& s) {
    if (const auto b = plan_.barrier_of.find(&s); b != plan_.barrier_of.end()) {
      if (plan_.barriers[static_cast<std::size_t>(b->second)].warp) return warp_exchange(s, b->second);
      const std::string id = std::to_string(b->second);
      text(" gpulab_rb.barrier(); [[maybe_unused]] const int gpulab_sync_" + id + " = gpulab_rb." +
           plan_.barriers[static_cast<std::size_t>(b->second)].combine + "(gpulab_p_" + id + ");");
      return;
    }
    switch (s.kind) {
      case StmtKind::compound: sequence(s); return;
      case StmtKind::if_:
        line(s.first);
        text(s.constexpr_if ? "if constexpr (" : "if (");
        copy_range(s.cond);
        text(")");
        branch(s.children[0]);
        if (s.children.size() > 1) {
          text(" else");
          branch(s.children[1]);
        }
        return;
      case StmtKind::for_:
        line(s.first);
        text("for (");
        if (s.children[0].kind == StmtKind::empty) {
          text(";");
        } else {
          copy(s.children[0].first, s.children[0].last, -1);
        }
        copy_range(s.cond);
        text(";");
        copy_range(s.inc);
        text(")");
        branch(s.children[1]);
        return;
      case StmtKind::while_:
        line(s.first);
        text("while (");
        copy_range(s.cond);
        text(")");
        branch(s.children[0]);
        return;
      case StmtKind::do_:
        line(s.first);
        text("do");
        branch(s.children[0]);
        text(" while (");
        copy_range(s.cond);
        text(");");
        return;
      case StmtKind::return_: text(" return;"); return;
      case StmtKind::break_: text(" break;"); return;
      case StmtKind::continue_: text(" continue;"); return;
      default: text(" gpulab_rb.barrier();"); return;  // `__syncthreads();`
    }
  }
  void copy_range(TokenRange r) {
    if (!r.empty()) copy(r.first, r.last, -1);
  }

  // `SPECIFIERS DECLARATOR INIT;` for one declarator of a declaration.
  void declarator_copy(const RegionVar& v, int region) {
    const Declaration& d = v.declaration;
    const Declarator& dr = d.declarators[v.declarator];
    line(d.specifiers.first);
    text("[[maybe_unused]] ");
    copy(d.specifiers.first, d.specifiers.last, region);
    text(" ");
    copy(dr.tokens.first, dr.init_tokens.empty() ? dr.tokens.last : dr.init_tokens.last, region);
    text(";");
  }

  void stored_declaration(const RegionVar& v, int id, int region) {
    const Declarator& dr = v.declaration.declarators[v.declarator];
    const std::string n = std::to_string(id);
    line(dr.name);
    text("::new (::gpulab::emu::region_slot(gpulab_s_" + n + " + gpulab_r)) gpulab_t_" + n);
    if (dr.init == Declarator::Init::copy && !t_.is_punct(dr.init_tokens.first, '{')) {
      text("(");
      copy(dr.init_tokens.first, dr.init_tokens.last, region);
      text(")");
    } else if (dr.init != Declarator::Init::none) {
      copy(dr.init_tokens.first, dr.init_tokens.last, region);
    }
    text("; [[maybe_unused]] gpulab_t_" + n + "& " + v.name + " = gpulab_s_" + n + "[gpulab_r];");
  }

  void region_statement(const Stmt& s, int region) {
    if (s.kind != StmtKind::declaration) return copy_statement(s, region);
    std::vector<int> vars;
    for (std::size_t v = 0; v < plan_.vars.size(); ++v)
      if (plan_.vars[v].statement == &s && !plan_.vars[v].parameter) vars.push_back(static_cast<int>(v));
    const bool stored = std::any_of(vars.begin(), vars.end(), [&](int v) {
      return plan_.vars[static_cast<std::size_t>(v)].kind == VarKind::stored;
    });
    const bool recomputed = std::any_of(vars.begin(), vars.end(), [&](int v) {
      return plan_.vars[static_cast<std::size_t>(v)].kind == VarKind::recomputed;
    });
    if (!stored) return recomputed ? copy_declaration_maybe_unused(s, region) : copy_statement(s, region);
    for (const int v : vars) {
      const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
      if (var.kind == VarKind::stored) {
        stored_declaration(var, v, region);
      } else {
        declarator_copy(var, region);
      }
    }
  }

  // The threads from here on would do nothing (region_loops.cpp): `if (!(v < u) && v >= 0 && g >= 0) break;`.
  void stop_check(const Region& r, int index) {
    text(" if (!(");
    copy(r.stop_unless.first, r.stop_unless.last, index);
    text(")");
    std::vector<TokenRange> nonnegative = r.stop_guards;
    if (!r.stop_value.empty()) nonnegative.insert(nonnegative.begin(), r.stop_value);
    for (const TokenRange& v : nonnegative) {
      text(" && (");
      copy(v.first, v.last, index);
      text(") >= 0");
    }
    text(") break;");
  }

  void region(int index) {
    const Region& r = plan_.regions[static_cast<std::size_t>(index)];
    for (const Stmt* s : r.before) copy_statement(*s, -1);
    for (const int v : r.declares_stored) {
      const std::string n = std::to_string(v);
      text(" using gpulab_t_" + n + " = " + plan_.vars[static_cast<std::size_t>(v)].type + "; gpulab_t_" + n +
           "* const gpulab_s_" + n + " = gpulab_rb.storage<gpulab_t_" + n + ">();");
    }
    const std::string p = std::to_string(r.predicate_of);
    const ValuedBarrier* warp = r.predicate_of >= 0 && plan_.barriers[static_cast<std::size_t>(r.predicate_of)].warp
                                    ? &plan_.barriers[static_cast<std::size_t>(r.predicate_of)]
                                    : nullptr;
    if (warp) {  // each thread's value (its bits) and lane or delta
      text(" unsigned long long* const gpulab_p_" + p + " = gpulab_rb.storage<unsigned long long>();");
      if (!warp->lane.empty()) text(" int* const gpulab_l_" + p + " = gpulab_rb.storage<int>();");
    } else if (r.predicate_of >= 0) {
      text(" int* const gpulab_p_" + p + " = gpulab_rb.storage<int>();");
    }
    std::vector<const Stmt*> body;
    for (const Stmt* s : r.statements)
      if (!plan_.hoisted.count(s)) body.push_back(s);
    if (!body.empty() || r.predicate_of >= 0) {
      text(std::string(" GPULAB_EMU_EACH_THREAD") + (r.short_body ? "_UNROLLED" : "") +
           (r.call_outs ? "_WITH_CONTEXT" : "") + "(gpulab_rb) {");
      for (const int v : r.bindings) {
        const RegionVar& var = plan_.vars[static_cast<std::size_t>(v)];
        const std::string n = std::to_string(v);
        if (var.kind == VarKind::stored) {
          text(" [[maybe_unused]] gpulab_t_" + n + "& " + var.name + " = gpulab_s_" + n + "[gpulab_r];");
        } else {
          declarator_copy(var, index);
        }
      }
      text(" {");
      for (const Stmt* s : body) {
        if (s == r.stop_before) stop_check(r, index);
        region_statement(*s, index);
      }
      if (warp) {
        const bool vote = warp->combine == "ballot" || warp->combine == "any" || warp->combine == "all";
        line(warp->predicate.first);
        text("gpulab_p_" + p +
             "[gpulab_r] = " + (vote ? std::string("static_cast<int>(") : std::string("::gpulab::emu::warp_bits(")));
        copy(warp->predicate.first, warp->predicate.last, index);
        text(vote ? ") != 0;" : ");");
        if (!warp->lane.empty()) {  // as the call's parameter takes it: int, or unsigned for a delta
          const bool delta = warp->combine == "shfl_up" || warp->combine == "shfl_down";
          text(" gpulab_l_" + p + "[gpulab_r] = static_cast<int>(" +
               (delta ? std::string("static_cast<unsigned>(") : std::string("(")));
          copy(warp->lane.first, warp->lane.last, index);
          text("));");
        }
      } else if (r.predicate_of >= 0) {
        const TokenRange pred = plan_.barriers[static_cast<std::size_t>(r.predicate_of)].predicate;
        line(pred.first);
        text("gpulab_p_" + p + "[gpulab_r] = static_cast<int>(");
        copy(pred.first, pred.last, index);
        text(") != 0;");
      }
      text(" }");
      if (r.returns) text(" gpulab_done_" + std::to_string(index) + ":;");
      text(" }");
    }
    for (const Stmt* s : r.after) copy_statement(*s, -1);
  }

  const CodeTokens& t_;
  const KernelSource& k_;
  const RegionPlan& plan_;
  const FunctionBody& body_;
  const RegionEmitContext& c_;
  std::vector<TokenRange> lambda_bodies_;
  std::vector<EditPart> parts_;
};

}  // namespace

SourceEdit region_form_edit(const CodeTokens& t, const KernelSource& kernel, const RegionDecision& decision,
                            const RegionEmitContext& context) {
  return RegionWriter(t, kernel, decision, context).write();
}

}  // namespace gpulab::rewriter
