// The device and host readings of a source (see arch_views.hpp). The source is walked once with a
// byte cursor: text between the tokens that matter is copied as it is, and a piece that must be
// read twice (a `__host__ __device__` body, a pair of branches) is walked again from its start.
#include "rewriter/arch_views.hpp"

#include "rewriter/arch_macros.hpp"
#include "rewriter/arch_resolve.hpp"
#include "rewriter/line_emitter.hpp"
#include "rewriter/scope_tracker.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace gpulab::rewriter {
namespace {

constexpr std::string_view kArch = "__CUDA_ARCH__";

// Who reads a piece of namespace- or class-scope code: both passes, or one of them alone.
enum class Mode { both, device, host };

// Where a function or declaration runs, from the qualifiers before its body: `__global__` or
// `__device__` alone, `__host__` alone, both, or none the rewriter can see (a host function, or
// one whose qualifiers come from a macro).
enum class Space { device, host, both, unseen };

Side side_of(Mode mode) { return mode == Mode::device ? Side::device : Side::host; }

class ArchViews {
 public:
  ArchViews(std::string_view source, std::string_view file_name, const ArchContext& ctx)
      : src_(source), t_(source, file_name), ctx_(ctx), out_(source, file_name) {
    dirs_ = directives_of(t_);
    cond_ = conditionals_of(dirs_);
    brace_ = scope_info(t_).brace;
    for (std::size_t d = 0; d < dirs_.size(); ++d) dir_at_[dirs_[d].hash] = d;
    match_braces();
    split_.assign(cond_.groups.size(), false);
    for (std::size_t g = 0; g < cond_.groups.size(); ++g) {
      for (const std::size_t d : cond_.groups[g].branches) {
        if (condition_mentions_arch(t_, dirs_[d], ctx_)) split_[g] = true;
      }
      if (split_[g]) check_group(g);
    }
  }

  ArchRewrite run() {
    scope_walk(0, t_.size(), Mode::both, false, npos);
    flush(src_.size());
    ArchRewrite r{out_.output(), out_.line_map()};
    bool same = true;
    for (std::size_t k = 0; k < r.line_map.size() && same; ++k) same = r.line_map[k] == static_cast<int>(k) + 1;
    if (same) r.line_map.clear();
    return r;
  }

 private:
  // ---- the cursor ----
  void flush(std::size_t byte) {
    if (byte > pos_) out_.copy(pos_, byte);
    pos_ = std::max(pos_, byte);
  }
  void skip(std::size_t byte) {
    if (byte > pos_) out_.blank(pos_, byte);
    pos_ = std::max(pos_, byte);
  }
  void replace(std::size_t token, const std::string& text) {
    flush(t_[token].begin);
    out_.text(text);
    pos_ = t_[token].end;
  }
  std::size_t begin_of(std::size_t token) const { return token < t_.size() ? t_[token].begin : src_.size(); }

  // ---- structure ----
  void match_braces() {
    partner_.assign(t_.size(), npos);
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < t_.size(); ++i) {
      if (t_.directive(i) != 0) continue;
      if (t_.is_punct(i, '{')) open.push_back(i);
      if (t_.is_punct(i, '}') && !open.empty()) {
        partner_[i] = open.back();
        partner_[open.back()] = i;
        open.pop_back();
      }
    }
  }

  const Directive* directive_at(std::size_t token) const {
    const auto it = dir_at_.find(token);
    return it == dir_at_.end() ? nullptr : &dirs_[it->second];
  }
  std::size_t directive_index(std::size_t token) const { return dir_at_.at(token); }

  // The group's branch b: its directive and the token range of its content.
  const Directive& branch_directive(const ConditionalGroup& g, std::size_t b) const { return dirs_[g.branches[b]]; }
  const Directive& after_branch(const ConditionalGroup& g, std::size_t b) const {
    return dirs_[b + 1 < g.branches.size() ? g.branches[b + 1] : g.endif];
  }

  bool is_arch_name(std::size_t i) const {
    return t_.is_identifier(i) && (t_.text(i) == kArch || ctx_.is_arch_macro(t_.text(i)));
  }
  bool is_arch_macro_directive(const Directive& d) const {
    return (d.name == "define" || d.name == "undef") && d.hash + 2 <= d.last && t_.is_identifier(d.hash + 2) &&
           ctx_.is_arch_macro(t_.text(d.hash + 2));
  }

  std::string group_line(std::size_t g) const {
    return std::to_string(t_[dirs_[cond_.groups[g].branches.front()].hash].line);
  }

  // A group the passes read differently must be whole and its branches must balance their braces.
  void check_group(std::size_t g) const {
    const ConditionalGroup& group = cond_.groups[g];
    const std::size_t first = dirs_[group.branches.front()].hash;
    if (group.endif == npos) {
      t_.fail(first, "this `#if` on `__CUDA_ARCH__` has no `#endif`");
    }
    for (std::size_t b = 0; b < group.branches.size(); ++b) {
      const Directive& d = branch_directive(group, b);
      long depth = 0;
      for (std::size_t i = d.last + 1; i < after_branch(group, b).hash; ++i) {
        if (t_.directive(i) != 0) continue;
        if (t_.is_punct(i, '{')) ++depth;
        if (t_.is_punct(i, '}')) --depth;
      }
      if (depth != 0) {
        t_.fail(d.hash,
                "this branch of the `#if` on `__CUDA_ARCH__` at line " + group_line(g) + " " +
                    (depth > 0 ? "opens braces it does not close" : "closes braces it did not open") +
                    ". nvcc reads this group differently in its device pass and its host pass, and the emulator, "
                    "which compiles both in one pass, needs each branch to hold whole statements or declarations: "
                    "repeat the lines the branches share inside each branch");
      }
    }
  }

  // A directive of a group the passes read differently, met where its group did not begin.
  [[noreturn]] void fail_straddle(std::size_t g, std::size_t token, std::string_view where) const {
    t_.fail(token, "this `#" + std::string(directive_at(token)->name) +
                       "` belongs to the `#if` on `__CUDA_ARCH__` at line " + group_line(g) + ", which begins " +
                       std::string(where) +
                       ". nvcc reads that group differently in its device pass and its host pass; the emulator, "
                       "which compiles both in one pass, can only do so when the whole group lies inside one "
                       "function body or around whole declarations: move the `#if` and its `#endif` to the same "
                       "place");
  }

  // ---- one side's reading of a range of tokens ----

  // Tokens [tb, te) as `side` reads them; the bytes up to te are copied by a later flush.
  void view_walk(std::size_t tb, std::size_t te, Side side) {
    for (std::size_t i = tb; i < te; ++i) {
      if (t_.directive(i) != 0) {
        const std::size_t d = directive_index(i);
        const std::size_t g = cond_.group_of[d];
        if (g != npos && split_[g]) {
          const ConditionalGroup& group = cond_.groups[g];
          if (group.branches.front() != d || dirs_[group.endif].last >= te) {
            fail_straddle(g, group.branches.front() != d ? i : dirs_[group.endif].hash,
                          group.branches.front() != d ? "before this piece of code" : "inside it and ends after it");
          }
          render_group(g, side, false, false);
          i = dirs_[group.endif].last;
          continue;
        }
        if (side == Side::device && is_arch_macro_directive(dirs_[d])) {
          flush(t_[i].begin);
          out_.text(device_definition(dirs_[d]));
          pos_ = t_[dirs_[d].last].end;
        }
        i = dirs_[d].last;
        continue;
      }
      // A lambda marked `__device__` (an extended lambda, handed to a kernel) runs in device code
      // wherever it is written: its body is read as the device reads it, or both ways when it is
      // `__host__ __device__`.
      if (t_.is_punct(i, '{') && partner_[i] != npos && partner_[i] < te) {
        const Space lambda = lambda_space(i);
        if (lambda == Space::device || lambda == Space::both) {
          flush(t_[i].end);
          render_body(i, lambda);
          i = partner_[i] - 1;
          continue;
        }
      }
      // `__CUDA_ARCH__` in code is its value where only the device pass reads it (under `#ifdef
      // __CUDA_ARCH__`, say); where the host pass reads it too, it stays, an error as it is there.
      if (side == Side::device && !host_sees_ && t_.is_identifier(i, kArch)) replace(i, std::to_string(ctx_.arch));
      if (side == Side::device && t_.is_identifier(i) && ctx_.is_arch_macro(t_.text(i)))
        replace(i, device_macro_name(t_.text(i)));
    }
  }

  // `#define NAME ...` as the device pass reads it, under the device name; likewise `#undef`.
  std::string device_definition(const Directive& d) const {
    const std::size_t name = d.hash + 2;
    std::string out = "#" + std::string(d.name) + " " + device_macro_name(t_.text(name));
    std::size_t pos = t_[name].end;
    for (std::size_t i = name + 1; i <= d.last; ++i) {
      std::string replacement;
      if (t_.is_identifier(i, kArch)) replacement = std::to_string(ctx_.arch);
      else if (t_.is_identifier(i) && ctx_.is_arch_macro(t_.text(i))) replacement = device_macro_name(t_.text(i));
      else continue;
      out += src_.substr(pos, t_[i].begin - pos);
      out += replacement;
      pos = t_[i].end;
    }
    out += src_.substr(pos, t_[d.last].end - pos);
    return out;
  }

  // Group g where the code around it is read by one side (`side`) only. When `scoped`, the branches
  // are namespace- or class-scope code (the other side's functions are dropped from them).
  void render_group(std::size_t g, Side side, bool scoped, bool class_scope) {
    const ConditionalGroup& group = cond_.groups[g];
    const std::vector<std::size_t> possible = possible_branches(t_, dirs_, group, side, ctx_);
    const bool known = possible.size() == 1;
    for (std::size_t b = 0; b < group.branches.size(); ++b) {
      const Directive& d = branch_directive(group, b);
      const Directive& next = after_branch(group, b);
      flush(t_[d.hash].begin);
      if (known) {
        skip(t_[d.last].end);
      } else if (side == Side::device) {
        const std::string keyword = d.name == "ifdef" || d.name == "ifndef" ? "if" : std::string(d.name);
        out_.text("#" + keyword + (d.name == "else" ? "" : " " + condition_expression(t_, d, side, ctx_)) +
                  t_.layout_of(t_[d.hash].begin, t_[d.last].end, true));
        pos_ = t_[d.last].end;
      }
      const bool taken = std::find(possible.begin(), possible.end(), b) != possible.end();
      if (known && !taken) {
        skip(t_[next.hash].begin);
        continue;
      }
      const HostSees sees(*this, host_sees_ && host_may_take(group, b));
      if (scoped) {
        scope_walk(d.last + 1, next.hash, side == Side::device ? Mode::device : Mode::host, class_scope, g);
      } else {
        view_walk(d.last + 1, next.hash, side);
      }
      flush(t_[next.hash].begin);
    }
    const Directive& endif = dirs_[group.endif];
    flush(t_[endif.hash].begin);
    if (known) skip(t_[endif.last].end);
  }

  // ---- namespace and class scope ----

  struct Item {
    std::size_t first, last;
    bool complete;
  };

  // The declaration starting at token i, within [i, te).
  Item item_at(std::size_t i, std::size_t te) const {
    std::size_t j = i;
    while (j < te) {
      if (t_.directive(j) != 0) {
        j = directive_at_or_inside(j) + 1;
        continue;
      }
      if (t_.is_punct(j, '{')) {
        const std::size_t close = partner_[j];
        if (close == npos || close >= te) return {i, te - 1, false};
        if (brace_[j] == BraceKind::Function || brace_[j] == BraceKind::Namespace) return {i, close, true};
        j = close + 1;
        continue;
      }
      if (t_.is_punct(j, ';')) return {i, j, true};
      if (t_.is_punct(j, '}')) return {i, j > i ? j - 1 : i, false};
      ++j;
    }
    return {i, te - 1, false};
  }
  std::size_t directive_at_or_inside(std::size_t token) const {
    std::size_t h = token;
    while (h > 0 && t_.directive(h - 1) == t_.directive(token)) --h;
    return dirs_[directive_index(h)].last;
  }

  // The first brace of the item that opens a body (function, class or namespace), or npos.
  std::size_t main_brace(const Item& item) const {
    for (std::size_t i = item.first; i <= item.last; ++i) {
      if (t_.directive(i) != 0) continue;
      if (t_.is_punct(i, '(') || t_.is_punct(i, '[')) {
        // Skip parenthesised parts (default arguments, attributes): their braces are initialisers.
        int depth = 0;
        for (; i <= item.last; ++i) {
          if (t_.directive(i) != 0) continue;
          if (t_.is_punct(i, '(') || t_.is_punct(i, '[')) ++depth;
          if ((t_.is_punct(i, ')') || t_.is_punct(i, ']')) && --depth == 0) break;
        }
        continue;
      }
      if (t_.is_punct(i, '{')) {
        if (brace_[i] != BraceKind::Init) return i;
        if (partner_[i] == npos) return npos;
        i = partner_[i];  // a member initialiser `a{1}` before a constructor's body
        continue;
      }
      if (t_.is_punct(i, '=')) return npos;  // an initialiser (a lambda in it is its own business)
    }
    return npos;
  }

  Space space_of(std::size_t first, std::size_t end) const {
    bool device = false, host = false, global = false;
    for (std::size_t i = first; i < end; ++i) {
      if (t_.directive(i) != 0 || !t_.is_identifier(i)) continue;
      const std::string_view w = t_.text(i);
      if (w == "__global__") global = true;
      if (w == "__device__" || w == "__constant__" || w == "__shared__") device = true;
      if (w == "__host__") host = true;
    }
    if (global || (device && !host)) return Space::device;
    if (host && !device) return Space::host;
    if (host) return Space::both;
    // `int main(...)` is host code whatever macros are around.
    for (std::size_t i = first; i + 1 < end; ++i) {
      if (t_.directive(i) == 0 && t_.is_identifier(i, "main") && t_.is_punct(i + 1, '(')) return Space::host;
    }
    return Space::unseen;
  }

  // For the '{' of a lambda's body, the execution space its declarator names (`[=] __device__ (int
  // i) {`); Space::unseen when it names none or the brace is not a lambda's.
  Space lambda_space(std::size_t brace) const {
    std::size_t j = brace;
    bool device = false, host = false;
    while (j-- > 0) {
      if (t_.directive(j) != 0) continue;
      if (t_.is_arrow_head(j)) continue;  // `-> type`
      if (t_.is_punct(j, ')') || t_.is_punct(j, '>')) {
        // A parameter list or a trailing return type's template arguments: step over them.
        const char close = t_.is_punct(j, ')') ? ')' : '>';
        const char open = close == ')' ? '(' : '<';
        int depth = 0;
        for (;; --j) {
          if (t_.directive(j) == 0 && t_.is_punct(j, close) && !(close == '>' && t_.is_arrow_head(j))) ++depth;
          if (t_.directive(j) == 0 && t_.is_punct(j, open) && --depth == 0) break;
          if (j == 0 || t_.is_punct(j, ';') || t_.is_punct(j, '{') || t_.is_punct(j, '}')) return Space::unseen;
        }
        continue;
      }
      if (t_.is_punct(j, ']')) {
        const std::optional<std::size_t> open = t_.match_backward(j);
        if (!open) return Space::unseen;
        const std::size_t p = *open;
        const bool introducer = p == 0 || !(t_.is_name(p - 1) || t_.is_punct(p - 1, ')') || t_.is_punct(p - 1, ']'));
        if (!introducer) return Space::unseen;
        if (device && !host) return Space::device;
        return device ? Space::both : Space::unseen;
      }
      if (t_.is_identifier(j, "__device__")) device = true;
      if (t_.is_identifier(j, "__host__")) host = true;
      const bool part_of_declarator = t_.is_identifier(j) || t_.is_punct(j, ':') || t_.is_punct(j, '-') ||
                                      t_.is_punct(j, '*') || t_.is_punct(j, '&') || t_.is_punct(j, ',');
      if (!part_of_declarator) return Space::unseen;
    }
    return Space::unseen;
  }

  bool needs_views(std::size_t tb, std::size_t te) const {
    for (std::size_t i = tb; i < te; ++i) {
      if (is_arch_name(i)) return true;
      if (t_.directive(i) != 0 && directive_at(i)) {
        const std::size_t d = directive_index(i);
        if (cond_.group_of[d] != npos && split_[cond_.group_of[d]]) return true;
      }
    }
    return false;
  }

  // A split group (or a piece of one) inside [tb, te): its first token, or npos.
  std::size_t split_directive_in(std::size_t tb, std::size_t te) const {
    for (std::size_t i = tb; i < te; ++i) {
      if (t_.directive(i) == 0 || !directive_at(i)) continue;
      const std::size_t g = cond_.group_of[directive_index(i)];
      if (g != npos && split_[g]) return i;
    }
    return npos;
  }

  // Tokens [tb, te) at namespace scope (or class scope), read by both passes or by the host alone.
  // `branch`: the split group whose branch this is (npos: none).
  void scope_walk(std::size_t tb, std::size_t te, Mode mode, bool class_scope, std::size_t branch) {
    std::size_t i = tb;
    while (i < te) {
      if (t_.directive(i) != 0) {
        const std::size_t d = directive_index(i);
        const std::size_t g = cond_.group_of[d];
        if (g != npos && split_[g]) {
          const ConditionalGroup& group = cond_.groups[g];
          if (group.branches.front() != d) fail_straddle(g, i, "inside a declaration or function before it");
          if (dirs_[group.endif].last >= te)
            fail_straddle(g, dirs_[group.endif].hash, "before the declaration it ends in");
          if (mode != Mode::both) {
            render_group(g, side_of(mode), true, class_scope);
          } else {
            render_split_group(g, class_scope);
          }
          i = dirs_[group.endif].last + 1;
          continue;
        }
        if (mode == Mode::both && is_arch_macro_directive(dirs_[d])) {
          flush(t_[dirs_[d].last].end);
          out_.text("\n" + device_definition(dirs_[d]));
        } else if (mode == Mode::device && is_arch_macro_directive(dirs_[d])) {
          flush(t_[i].begin);
          out_.text(device_definition(dirs_[d]));
          pos_ = t_[dirs_[d].last].end;
        }
        i = dirs_[d].last + 1;
        continue;
      }
      const Item item = item_at(i, te);
      if (!item.complete && branch != npos) {
        t_.fail(i, "this branch of the `#if` on `__CUDA_ARCH__` at line " + group_line(branch) +
                       " holds part of a declaration, not whole ones. nvcc reads the group differently in its device "
                       "pass and its host pass; the emulator, which compiles both in one pass, can only do so for "
                       "branches of whole declarations: repeat the shared part of the declaration in each branch");
      }
      render_item(item, mode, class_scope);
      i = item.last + 1;
    }
  }

  void render_item(const Item& item, Mode mode, bool class_scope) {
    const std::size_t brace = main_brace(item);
    const std::size_t head_end = brace == npos ? item.last + 1 : brace;
    const Space space = space_of(item.first, head_end);
    const bool function = brace != npos && brace_[brace] == BraceKind::Function;
    // Code only one pass reads may hold functions of the other side, which that pass never runs:
    // kernels and device functions in the host pass's branch, host functions in the device pass's
    // (a host function another branch defines again for the host, say). Class members stay.
    bool constexpr_function = false;
    for (std::size_t i = item.first; i < head_end && function; ++i) {
      constexpr_function = constexpr_function || t_.is_identifier(i, "constexpr");
    }
    const bool other_side = (mode == Mode::host && space == Space::device && (!class_scope || function)) ||
                            (mode == Mode::device && function && !class_scope &&
                             (space == Space::host || (space == Space::unseen && !constexpr_function)));
    if (other_side) {
      flush(t_[item.first].begin);
      skip(t_[item.last].end);
      return;
    }
    const Side item_side = mode != Mode::both ? side_of(mode) : space == Space::device ? Side::device : Side::host;
    // A group the passes read differently in the declaration itself (not its body).
    const std::size_t body_first = brace == npos ? item.last + 1 : brace + 1;
    const std::size_t body_last = brace == npos ? item.last + 1 : partner_[brace];
    if ((space == Space::both || space == Space::unseen) && mode == Mode::both) {
      std::size_t s = split_directive_in(item.first, body_first);
      if (s == npos && body_last <= item.last) s = split_directive_in(body_last, item.last + 1);
      if (s != npos) {
        t_.fail(s,
                "this `#if` on `__CUDA_ARCH__` is inside a declaration that device code and host code share "
                "(a type, a variable or a `__host__ __device__` function's signature): nvcc's two passes read it "
                "differently, and the emulator compiles one declaration for both. Write the two versions as "
                "whole declarations under the `#if`, or test `__CUDA_ARCH__` inside a function body");
      }
    }
    if (brace == npos) {
      view_walk(item.first, item.last + 1, item_side);
      return;
    }
    view_walk(item.first, brace, item_side);
    const BraceKind kind = brace_[brace];
    bool is_enum = false;  // an enum's body holds enumerators, not declarations
    for (std::size_t i = item.first; i < brace; ++i) is_enum = is_enum || t_.is_identifier(i, "enum");
    if (kind == BraceKind::Namespace || (kind == BraceKind::Class && !is_enum)) {
      scope_walk(brace + 1, partner_[brace], mode, kind == BraceKind::Class, npos);
    } else if (kind == BraceKind::Function) {
      render_body(brace, mode == Mode::host ? Space::host : mode == Mode::device ? Space::device : space);
    } else {
      view_walk(brace + 1, partner_[brace], item_side);
    }
    view_walk(partner_[brace], item.last + 1, item_side);
  }

  // A function body: as the side that runs it reads it, or both readings chosen at run time.
  void render_body(std::size_t brace, Space space) {
    const std::size_t close = partner_[brace];
    if (space == Space::device || space == Space::host || !needs_views(brace + 1, close)) {
      view_walk(brace + 1, close, space == Space::device ? Side::device : Side::host);
      return;
    }
    for (std::size_t i = brace + 1; i < close; ++i) {
      if (t_.is_identifier(i, "goto")) {
        t_.fail(i,
                "this function tests `__CUDA_ARCH__` and may run in device code and in host code, so the "
                "emulator writes its body twice, once as each of nvcc's passes reads it, and picks one when it "
                "runs; a `goto` label cannot appear twice in one function. Mark the function `__device__` or "
                "`__host__` alone, or use a loop instead of `goto`");
      }
    }
    flush(t_[brace].end);
    out_.text(" if (::gpulab::emu::in_device_code()) {");
    view_walk(brace + 1, close, Side::device);
    flush(t_[close].begin);
    out_.text(" } else {");
    pos_ = t_[brace].end;
    view_walk(brace + 1, close, Side::host);
    flush(t_[close].begin);
    out_.text(" }");
  }

  // ---- a group at namespace or class scope that the passes read differently ----

  void render_split_group(std::size_t g, bool class_scope) {
    const ConditionalGroup& group = cond_.groups[g];
    const std::size_t none = group.branches.size();
    if (class_scope) check_class_branches(g);
    const std::vector<std::size_t> device = possible_branches(t_, dirs_, group, Side::device, ctx_);
    const std::vector<std::size_t> host = possible_branches(t_, dirs_, group, Side::host, ctx_);
    const Directive& endif = dirs_[group.endif];
    if (device.size() == 1 && host.size() == 1) {
      // Both known: each branch in place, the device's read by the device, the host's by the host.
      for (std::size_t b = 0; b < group.branches.size(); ++b) {
        const Directive& d = branch_directive(group, b);
        const Directive& next = after_branch(group, b);
        flush(t_[d.hash].begin);
        skip(t_[d.last].end);
        if (b == device.front() && b == host.front()) {
          scope_walk(d.last + 1, next.hash, Mode::both, class_scope, npos);
        } else if (b == device.front()) {
          const HostSees sees(*this, false);
          scope_walk(d.last + 1, next.hash, Mode::device, class_scope, g);
        } else if (b == host.front()) {
          scope_walk(d.last + 1, next.hash, Mode::host, class_scope, g);
        } else {
          skip(t_[next.hash].begin);
        }
        flush(t_[next.hash].begin);
      }
      flush(t_[endif.hash].begin);
      skip(t_[endif.last].end);
      return;
    }
    // Some condition names a macro only the compiler knows: one block per possible pair of branches.
    flush(t_[dirs_[group.branches.front()].hash].begin);
    for (const std::size_t i : device) {
      for (const std::size_t j : host) {
        out_.line("#if (" + selection(group, i, Side::device) + ") && (" + selection(group, j, Side::host) + ")");
        if (i < none) {
          const Directive& d = branch_directive(group, i);
          pos_ = t_[d.last].end;
          const HostSees sees(*this, i == j);
          scope_walk(d.last + 1, after_branch(group, i).hash, i == j ? Mode::both : Mode::device, class_scope,
                     i == j ? npos : g);
          flush(t_[after_branch(group, i).hash].begin);
        }
        if (j < none && j != i) {
          const Directive& d = branch_directive(group, j);
          pos_ = t_[d.last].end;
          scope_walk(d.last + 1, after_branch(group, j).hash, Mode::host, class_scope, g);
          flush(t_[after_branch(group, j).hash].begin);
        }
        out_.line("#endif");
      }
    }
    pos_ = t_[endif.last].end;
  }

  // The preprocessor expression that is true when `side` takes branch b of the group.
  std::string selection(const ConditionalGroup& group, std::size_t b, Side side) const {
    std::string out;
    for (std::size_t k = 0; k < group.branches.size() && k <= b; ++k) {
      const std::string c = condition_expression(t_, branch_directive(group, k), side, ctx_);
      if (!out.empty()) out += " && ";
      out += k == b ? "(" + c + ")" : "!(" + c + ")";
    }
    return out.empty() ? "1" : out;
  }

  // In a class, the passes may only differ in whole member functions: a data member or a type
  // that exists in one pass alone would give the class two layouts.
  void check_class_branches(std::size_t g) const {
    const ConditionalGroup& group = cond_.groups[g];
    for (std::size_t b = 0; b < group.branches.size(); ++b) {
      const std::size_t te = after_branch(group, b).hash;
      for (std::size_t i = branch_directive(group, b).last + 1; i < te;) {
        if (t_.directive(i) != 0) {
          i = directive_at_or_inside(i) + 1;
          continue;
        }
        const Item item = item_at(i, te);
        const std::size_t brace = main_brace(item);
        const bool access = item.last == item.first + 1 && t_.is_punct(item.last, ':');
        if (!access && (brace == npos || brace_[brace] != BraceKind::Function)) {
          t_.fail(item.first, "this member is declared under the `#if` on `__CUDA_ARCH__` at line " + group_line(g) +
                                  ", which nvcc's device pass and host pass read differently, so the class would "
                                  "have one set of members in device code and another in host code; the emulator "
                                  "compiles one class for both. Only whole member functions may differ: declare "
                                  "the members outside the `#if`");
        }
        i = item.last + 1;
      }
    }
  }

  // Whether nvcc's host pass reads the code being walked (it parses every function body, device
  // code too, except what a group hides from it), with the scope that sets it for a while.
  bool host_may_take(const ConditionalGroup& group, std::size_t b) const {
    const std::vector<std::size_t> host = possible_branches(t_, dirs_, group, Side::host, ctx_);
    return std::find(host.begin(), host.end(), b) != host.end();
  }
  struct HostSees {
    HostSees(ArchViews& v, bool sees) : v_(v), saved_(v.host_sees_) { v.host_sees_ = sees; }
    ~HostSees() { v_.host_sees_ = saved_; }
    HostSees(const HostSees&) = delete;
    HostSees& operator=(const HostSees&) = delete;
    ArchViews& v_;
    bool saved_;
  };
  bool host_sees_ = true;

  std::string_view src_;
  CodeTokens t_;
  const ArchContext& ctx_;
  LineEmitter out_;
  std::size_t pos_ = 0;
  std::vector<Directive> dirs_;
  Conditionals cond_;
  std::vector<BraceKind> brace_;
  std::vector<std::size_t> partner_;
  std::unordered_map<std::size_t, std::size_t> dir_at_;
  std::vector<bool> split_;
};

bool mentions_arch(std::string_view source, const ArchContext& ctx) {
  if (source.find(kArch) != std::string_view::npos) return true;
  if (!ctx.macros) return false;
  return std::any_of(ctx.macros->begin(), ctx.macros->end(),
                     [&](const std::string& m) { return source.find(m) != std::string_view::npos; });
}

}  // namespace

ArchRewrite rewrite_arch_views(std::string_view source, std::string_view file_name, const ArchContext& ctx) {
  if (!mentions_arch(source, ctx)) return {std::string(source), {}};
  const std::string resolved = resolve_agreeing_groups(source, file_name, ctx);
  ArchRewrite r = ArchViews(resolved, file_name, ctx).run();
  return r;
}

}  // namespace gpulab::rewriter
