// Kernel registration (see kernel_registration_rewrite.hpp): finds each `__global__` definition at
// namespace scope, its name and parameter list, and inserts the registration after its body.
#include "rewriter/kernel_registration_rewrite.hpp"

#include <optional>
#include <string>

namespace gpulab::rewriter {
namespace {

bool is_bracket_open(const CodeTokens& t, std::size_t i) {
  return t.is_punct(i, '(') || t.is_punct(i, '[') || t.is_punct(i, '{');
}
bool is_bracket_close(const CodeTokens& t, std::size_t i) {
  return t.is_punct(i, ')') || t.is_punct(i, ']') || t.is_punct(i, '}');
}
bool ends_declaration(const CodeTokens& t, std::size_t i) {
  return t.is_punct(i, ';') || t.is_punct(i, '{') || t.is_punct(i, '}');
}
// Specifiers with a parenthesised argument that may stand between `__global__` and the name.
bool is_specifier_with_arguments(const CodeTokens& t, std::size_t i) {
  for (std::string_view s : {"__launch_bounds__", "__attribute__", "__declspec", "__cluster_dims__", "__maxnreg__",
                             "alignas", "__align__", "__noinline__"}) {
    if (t.is_identifier(i, s)) return true;
  }
  return false;
}

struct Kernel {
  std::size_t name_first, name_last;  // the name as written, possibly qualified (`ns::k`)
  std::size_t params_open, params_close;
  std::size_t body_close;
};

class KernelDefinition {
 public:
  KernelDefinition(const CodeTokens& t, std::size_t global) : t_(t), global_(global) {}

  std::optional<Kernel> parse() const {
    if (is_template_or_friend()) return std::nullopt;
    Kernel k{};
    std::size_t i = global_ + 1;
    for (; i < t_.size(); ++i) {  // to the '(' of the parameters
      if (t_.directive(i) != 0) continue;
      if (is_specifier_with_arguments(t_, i) && i + 1 < t_.size() && t_.is_punct(i + 1, '(')) {
        const std::optional<std::size_t> close = t_.match_forward(i + 1);
        if (!close) return std::nullopt;
        i = *close;
        continue;
      }
      if (ends_declaration(t_, i) || t_.is_punct(i, '=')) return std::nullopt;
      if (t_.is_punct(i, '(')) break;
    }
    if (i >= t_.size() || !name_before(i, k)) return std::nullopt;
    k.params_open = i;
    const std::optional<std::size_t> params_close = t_.match_forward_over_directives(i);
    if (!params_close) return std::nullopt;
    k.params_close = *params_close;
    for (std::size_t p = k.params_open + 1; p < k.params_close; ++p) {
      if (t_.is_identifier(p, "auto")) return std::nullopt;  // `void k(auto x)` is a template
    }
    std::size_t j = k.params_close + 1;
    for (; j < t_.size(); ++j) {  // to the body, past noexcept, attributes, a trailing `-> void`
      if (t_.directive(j) != 0) continue;
      if (t_.is_punct(j, '(')) {
        const std::optional<std::size_t> close = t_.match_forward(j);
        if (!close) return std::nullopt;
        j = *close;
        continue;
      }
      if (t_.is_punct(j, '{')) break;
      if (t_.is_punct(j, ';') || t_.is_punct(j, '}') || t_.is_punct(j, '=') || t_.is_punct(j, ',')) {
        return std::nullopt;  // a declaration only
      }
    }
    if (j >= t_.size()) return std::nullopt;
    const std::optional<std::size_t> body_close = t_.match_forward_over_directives(j);
    if (!body_close) return std::nullopt;
    k.body_close = *body_close;
    return k;
  }

 private:
  // `template <...> __global__ ...`, `friend __global__ ...`: back to the previous declaration's end.
  bool is_template_or_friend() const {
    for (std::size_t j = global_; j-- > 0;) {
      if (t_.directive(j) != 0) continue;
      if (ends_declaration(t_, j)) return false;
      if (t_.is_identifier(j, "template") || t_.is_identifier(j, "friend") || t_.is_identifier(j, "typedef"))
        return true;
    }
    return false;
  }

  // The name right before the parameters' '(': `k`, `ns::k`, `::k`; not `operator()` or `k<float>`.
  bool name_before(std::size_t open, Kernel& k) const {
    if (open == 0 || !t_.is_name(open - 1)) return false;
    k.name_last = open - 1;
    std::size_t first = open - 1;
    while (first >= 2 && t_.is_scope_op(first - 2)) {
      if (first >= 3 && t_.is_name(first - 3) && first - 3 > global_) {
        first -= 3;
      } else {
        first -= 2;  // a leading `::`
        break;
      }
    }
    k.name_first = first;
    return first > global_;
  }

  const CodeTokens& t_;
  std::size_t global_;
};

// The parameter list without default arguments: `float* x, int n = 4` -> `float* x, int n`.
std::string parameters_without_defaults(const CodeTokens& t, const Kernel& k) {
  std::vector<std::size_t> kept;
  int depth = 0;
  bool in_default = false;
  for (std::size_t i = k.params_open + 1; i < k.params_close; ++i) {
    if (t.directive(i) != 0) continue;
    if (is_bracket_open(t, i)) ++depth;
    if (is_bracket_close(t, i)) --depth;
    if (depth == 0 && t.is_punct(i, ',')) in_default = false;
    if (depth == 0 && t.is_punct(i, '=') && !(i + 1 < k.params_close && t.is_punct(i + 1, '=') && t.adjacent(i, i + 1)))
      in_default = true;
    if (!in_default) kept.push_back(i);
  }
  return kept.empty() ? std::string() : t.collapsed_text(kept);
}

}  // namespace

void collect_kernel_registrations(const CodeTokens& t, const std::vector<TokenScope>& scope,
                                  std::vector<SourceEdit>& edits) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t.is_identifier(i, "__global__") || t.directive(i) != 0 || scope[i] != TokenScope::Namespace) continue;
    const std::optional<Kernel> k = KernelDefinition(t, i).parse();
    if (!k) continue;
    const std::string name = t.collapsed_text(k->name_first, k->name_last);
    const Token& close = t[k->body_close];
    const std::string variable = "gpulab_kernel_registration_" + std::string(t.text(k->name_last)) + "_L" +
                                 std::to_string(close.line) + "C" + std::to_string(close.column);
    SourceEdit edit;
    edit.begin = edit.end = close.end;
    edit.parts.push_back(EditPart::literal(" static const ::gpulab::emu::kernel_registration " + variable +
                                           "(static_cast<void (*)(" + parameters_without_defaults(t, *k) + ")>(&" +
                                           name + "), \"" + escape_string_literal(name) + "\");"));
    edits.push_back(std::move(edit));
    i = k->body_close;
  }
}

}  // namespace gpulab::rewriter
