// Kernel launch rewriting: locate `<<<`, scan backwards for the kernel expression, forwards for the
// `>>>` that closes the configuration and for the balanced argument list, then build the edit.
#include "rewriter/launch_rewrite.hpp"

#include <optional>
#include <string>

namespace gpulab::rewriter {
namespace {

constexpr std::string_view launch_shape = "kernel<<<grid, block>>>(arguments...)";

class LaunchParser {
 public:
  LaunchParser(const CodeTokens& t, std::size_t open) : t_(t), open_(open), dir_(t.directive(open)) {}

  SourceEdit parse() {
    const std::size_t kernel_last = open_ - 1;  // open_ > 0 is checked by kernel_start()
    const std::size_t kernel_first = kernel_start();
    const std::size_t close = config_close();
    if (close == open_ + 3) {
      t_.fail(open_, "kernel launch at " + t_.where(open_) +
                         " has an empty launch configuration: write at least the grid and block "
                         "sizes, as in " +
                         std::string(launch_shape));
    }
    const std::size_t lparen = close + 3;
    if (lparen >= t_.size() || t_.directive(lparen) != dir_ || !t_.is_punct(lparen, '(')) {
      t_.fail(close, "kernel launch at " + t_.where(kernel_first) +
                         ": expected '(' with the kernel's arguments after '>>>' (write " + std::string(launch_shape) +
                         ", with '()' if the kernel takes no arguments)");
    }
    const std::optional<std::size_t> rparen = t_.match_forward(lparen);
    if (!rparen) {
      t_.fail(lparen, "the argument list '(' of the kernel launch at " + t_.where(kernel_first) +
                          " has no matching ')': check the parentheses and brackets of the arguments");
    }
    return build(kernel_first, kernel_last, close, lparen, *rparen);
  }

 private:
  [[noreturn]] void fail_no_kernel() const {
    t_.fail(open_, "could not find the kernel to launch before '<<<' at " + t_.where(open_) + ": write the launch as " +
                       std::string(launch_shape) +
                       " (template kernels: name<T><<<...>>>(...), pointers: (ptr)<<<...>>>(...))");
  }

  bool same_directive(std::size_t i) const { return t_.directive(i) == dir_; }

  bool is_template_close(std::size_t i) const { return t_.is_punct(i, '>') && !t_.is_arrow_head(i); }

  // Index of the '<' that opens the template argument list closed by the '>' at i.
  std::optional<std::size_t> template_open(std::size_t i) const {
    int depth = 0;
    for (std::size_t j = i;; --j) {
      if (!same_directive(j)) return std::nullopt;
      if (is_template_close(j)) {
        ++depth;
      } else if (t_.is_punct(j, '<')) {
        if (--depth == 0) return j;
      } else if (t_.is_punct(j, ')') || t_.is_punct(j, ']') || t_.is_punct(j, '}')) {
        const std::optional<std::size_t> m = t_.match_backward(j);
        if (!m) return std::nullopt;
        j = *m;
      } else if (t_.is_punct(j, '(') || t_.is_punct(j, '[') || t_.is_punct(j, '{') || t_.is_punct(j, ';')) {
        return std::nullopt;
      }
      if (j == 0) return std::nullopt;
    }
  }

  // Can the token at p end the callee of a call `callee(...)` / the object of a subscript `a[...]`?
  bool ends_postfix_operand(std::size_t p) const {
    if (!same_directive(p)) return false;
    if (t_.is_name(p) || is_template_close(p) || t_.is_punct(p, ']')) return true;
    if (t_.is_punct(p, ')')) {
      // `if (c) (fp)<<<...`: a parenthesised condition is not a callee.
      const std::optional<std::size_t> m = t_.match_backward(p);
      return m && !(*m > 0 && same_directive(*m - 1) && t_.is_identifier(*m - 1) && t_.text(*m - 1) != "operator" &&
                    is_cpp_keyword(t_.text(*m - 1)));
    }
    return false;
  }

  // First token of the kernel expression that ends right before '<<<'.
  std::size_t kernel_start() const {
    if (open_ == 0 || !same_directive(open_ - 1)) fail_no_kernel();
    std::size_t i = open_ - 1;
    while (true) {
      if (t_.is_punct(i, ')') || t_.is_punct(i, ']')) {  // (fp), f(x), table[i]
        const std::optional<std::size_t> m = t_.match_backward(i);
        if (!m) fail_no_kernel();
        if (*m > 0 && ends_postfix_operand(*m - 1)) {
          i = *m - 1;
          continue;
        }
        if (t_.is_punct(i, ']')) fail_no_kernel();  // a lambda introducer cannot be launched
        return *m;
      }
      if (is_template_close(i)) {  // name<args>
        const std::optional<std::size_t> lt = template_open(i);
        if (!lt || *lt == 0 || !t_.is_name(*lt - 1)) fail_no_kernel();
        i = *lt - 1;
      }
      if (!t_.is_name(i)) fail_no_kernel();
      std::size_t first = i;
      // Qualification: ns::name, A<int>::name, ns::template name<T>, ::name
      while (true) {
        std::size_t f = first;
        if (f >= 1 && t_.is_identifier(f - 1, "template") && same_directive(f - 1)) --f;
        if (!(f >= 2 && t_.is_scope_op(f - 2) && same_directive(f - 2))) break;
        const std::size_t colon = f - 2;
        if (colon == 0 || !same_directive(colon - 1)) return colon;
        std::size_t q = colon - 1;
        if (is_template_close(q)) {
          const std::optional<std::size_t> lt = template_open(q);
          if (!lt || *lt == 0 || !t_.is_name(*lt - 1)) fail_no_kernel();
          q = *lt - 1;
        }
        if (!t_.is_name(q)) return colon;  // leading '::' (global namespace)
        first = q;
      }
      if (t_.is_identifier(first, "template")) fail_no_kernel();
      // Member access: obj.kernel_ptr, obj->kernel_ptr
      if (first >= 2 && t_.is_punct(first - 1, '.') && same_directive(first - 1)) {
        i = first - 2;
        if (!ends_postfix_operand(i)) fail_no_kernel();
        continue;
      }
      if (first >= 3 && t_.is_arrow_head(first - 1) && same_directive(first - 2)) {
        i = first - 3;
        if (!ends_postfix_operand(i)) fail_no_kernel();
        continue;
      }
      return first;
    }
  }

  // Index of the first '>' of the '>>>' that closes the launch configuration.
  std::size_t config_close() const {
    std::string expected;  // closing brackets still open inside the configuration
    for (std::size_t j = open_ + 3; j < t_.size() && same_directive(j); ++j) {
      if (t_[j].kind != TokenKind::Punct) continue;
      const char c = t_.source()[t_[j].begin];
      if (c == '(' || c == '[' || c == '{') {
        expected.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
      } else if (c == ')' || c == ']' || c == '}') {
        if (expected.empty() || expected.back() != c) break;
        expected.pop_back();
      } else if (expected.empty() && c == ';') {
        break;
      } else if (expected.empty() && c == '>') {
        const std::size_t run = t_.punct_run(j, '>');
        // In `<<<g, v<int>>>>`, a template's '>' comes first: the last three close the launch.
        if (run >= 3) return j + run - 3;
        j += run - 1;
      }
    }
    t_.fail(open_, "kernel launch '<<<' at " + t_.where(open_) +
                       " has no matching '>>>': check the launch configuration (expected " + std::string(launch_shape) +
                       ")");
  }

  std::string layout(std::size_t begin, std::size_t end) const { return t_.layout_of(begin, end, dir_ != 0); }

  // In `#define LAUNCH(k) k<<<1, 1>>>()` the kernel is a macro parameter: name it with `#k`.
  bool is_macro_parameter(std::size_t i) const {
    if (dir_ == 0 || !t_.is_name(i)) return false;
    std::size_t hash = i;
    while (hash > 0 && t_.directive(hash - 1) == dir_) --hash;
    const std::size_t name = hash + 2;
    if (!t_.is_identifier(hash + 1, "define") || !t_.is_punct(name + 1, '(') || !t_.adjacent(name, name + 1)) {
      return false;
    }
    for (std::size_t p = name + 2; p < i && !t_.is_punct(p, ')'); ++p) {
      if (t_.is_identifier(p) && t_.text(p) == t_.text(i)) return true;
    }
    return false;
  }

  SourceEdit build(std::size_t kernel_first, std::size_t kernel_last, std::size_t close, std::size_t lparen,
                   std::size_t rparen) const {
    const std::string kernel = t_.collapsed_text(kernel_first, kernel_last);
    const std::string kernel_name = kernel_first == kernel_last && is_macro_parameter(kernel_first)
                                        ? "#" + kernel
                                        : "\"" + escape_string_literal(kernel) + "\"";
    SourceEdit edit;
    edit.begin = t_[kernel_first].begin;
    edit.end = t_[rparen].end;
    auto lit = [&](std::string s) {
      if (!s.empty()) edit.parts.push_back(EditPart::literal(std::move(s)));
    };
    // Configuration and arguments keep their own text; the dropped pieces around them (kernel
    // expression, '<<<', '>>>', comments, parentheses) leave their line breaks and indentation behind,
    // so every token that is kept stays on its line (and, after a line break, in its column).
    const std::size_t config_first = open_ + 3;
    const std::size_t config_last = close - 1;
    lit("::gpulab::emu::launcher(" + kernel_name + ", __LINE__, " +
        layout(t_[kernel_first].begin, t_[config_first].begin));
    edit.parts.push_back(EditPart::source(t_[config_first].begin, t_[config_last].end));
    lit(layout(t_[config_last].end, t_[lparen].begin) + ").run([=](auto... gpulab_a) { " + kernel + "(gpulab_a...); }");
    if (rparen > lparen + 1) {
      lit(", " + layout(t_[lparen].end, t_[lparen + 1].begin));
      edit.parts.push_back(EditPart::source(t_[lparen + 1].begin, t_[rparen - 1].end));
      lit(layout(t_[rparen - 1].end, t_[rparen].begin) + ")");
    } else {
      lit(layout(t_[lparen].end, t_[rparen].begin) + ")");
    }
    return edit;
  }

  const CodeTokens& t_;
  std::size_t open_;  // index of the first '<' of '<<<'
  int dir_;
};

// Tokens i, i+1, i+2 are an adjacent '<<<' that starts a launch configuration (not `operator<<<T>`,
// not the free text of `#error` / `#pragma`: of all directives only #define bodies hold code).
bool is_launch_open(const CodeTokens& t, std::size_t i) {
  if (t.punct_run(i, '<') < 3) return false;
  if (t.directive(i) != 0 && t.directive_name(i) != "define") return false;
  if (i > 0 && t.is_punct(i - 1, '<') && t.adjacent(i - 1, i)) return false;  // not the start of the run
  return !(i > 0 && t.is_identifier(i - 1, "operator"));
}

}  // namespace

void collect_kernel_launches(const CodeTokens& tokens, std::vector<SourceEdit>& edits) {
  for (std::size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (!is_launch_open(tokens, i)) continue;
    edits.push_back(LaunchParser(tokens, i).parse());
    i += 2;  // launches nested in the configuration or the arguments are found later
  }
}

}  // namespace gpulab::rewriter
