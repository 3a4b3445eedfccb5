// __shared__ declaration rewriting: find the whole declaration around the keyword, drop the storage and
// alignment specifiers, split it into declarators (type, name, array dimensions) and emit one
// emulator statement per declarator on the declaration's first line, followed by its line breaks.
#include "rewriter/shared_rewrite.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gpulab::rewriter {
namespace {

struct Declarator {
  std::size_t name;               // token index of the declared name
  std::vector<std::size_t> type;  // token indices of the type (may be non-contiguous)
  std::vector<std::size_t> dims;  // token indices of the array part, e.g. [TILE][TILE]
};

bool is_open(const CodeTokens& t, std::size_t i) {
  return t.is_punct(i, '(') || t.is_punct(i, '[') || t.is_punct(i, '{');
}
bool is_close(const CodeTokens& t, std::size_t i) {
  return t.is_punct(i, ')') || t.is_punct(i, ']') || t.is_punct(i, '}');
}

class SharedDeclaration {
 public:
  // `in_define`: the declaration is in a #define body (its tokens are that directive's).
  SharedDeclaration(const CodeTokens& t, std::size_t keyword, bool in_function, bool in_define = false)
      : t_(t),
        keyword_(keyword),
        in_function_(in_function),
        in_define_(in_define),
        first_(declaration_start()),
        semi_(keyword) {}

  // The last token looked at (the ';' of a rewritten declaration).
  std::size_t last_token() const { return semi_; }

  std::optional<SourceEdit> rewrite() {
    semi_ = declaration_end();
    std::vector<std::size_t> kept;  // the declaration without storage / alignment specifiers and ';'
    for (std::size_t j = first_; j < semi_; ++j) {
      if (t_.is_identifier(j, "extern")) {
        is_extern_ = true;
        continue;
      }
      if (t_.is_identifier(j, "__shared__") || t_.is_identifier(j, "static")) continue;
      const bool alignment = t_.is_identifier(j, "__align__") || t_.is_identifier(j, "alignas") ||
                             t_.is_identifier(j, "__attribute__") || t_.is_identifier(j, "__declspec");
      if (alignment && t_.is_punct(j + 1, '(')) {
        j = *t_.match_forward(j + 1);  // balanced: declaration_end() skipped over this group
        continue;
      }
      kept.push_back(j);
    }

    std::string statements;
    std::vector<std::size_t> base_type;
    for (const std::vector<std::size_t>& part : split_declarators(kept)) {
      const Declarator d = parse_declarator(part, base_type);
      if (!statements.empty()) statements += ' ';
      statements += statement_for(d);
    }
    SourceEdit edit;
    edit.begin = t_[first_].begin;
    edit.end = t_[semi_].end;
    edit.parts.push_back(EditPart::literal(statements + t_.layout_of(edit.begin, edit.end, in_define_)));
    return edit;
  }

 private:
  std::string decl_text() const { return is_extern_ ? "extern __shared__" : "__shared__"; }

  // First token of the declaration: walk back over specifiers (`static`, `volatile`, `unsigned int`,
  // `__align__(16)`, `Foo<T>::Bar`) until the previous statement, block start or label.
  std::size_t declaration_start() const {
    std::size_t j = keyword_;
    while (j > 0) {
      const std::size_t p = j - 1;
      if (t_.directive(p) != t_.directive(keyword_)) break;
      if (t_.is_punct(p, ';') || t_.is_punct(p, '{') || t_.is_punct(p, '}') || t_.is_punct(p, '(') ||
          t_.is_punct(p, '[') || t_.is_identifier(p, "else") || t_.is_identifier(p, "do")) {
        break;
      }
      if (t_.is_punct(p, ':')) {
        if (p > 0 && t_.is_scope_op(p - 1)) {
          j = p - 1;
          continue;
        }
        break;  // label, `public:`, `case X:`
      }
      if (t_.is_punct(p, ')') || t_.is_punct(p, ']')) {
        const std::optional<std::size_t> m = t_.match_backward(p);
        if (!m) break;
        if (*m > 0 && (t_.is_identifier(*m - 1, "if") || t_.is_identifier(*m - 1, "while") ||
                       t_.is_identifier(*m - 1, "for") || t_.is_identifier(*m - 1, "switch"))) {
          break;
        }
        j = *m;
        continue;
      }
      j = p;
    }
    return j;
  }

  // Index of the ';' that ends the declaration.
  std::size_t declaration_end() const {
    for (std::size_t j = keyword_ + 1; j < t_.size(); ++j) {
      if (t_.directive(j) != t_.directive(keyword_)) {
        t_.fail(keyword_, "the __shared__ declaration at " + t_.where(keyword_) +
                              " is split by a preprocessor directive: write the whole declaration "
                              "in each #if branch instead");
      }
      if (is_open(t_, j)) {
        const std::optional<std::size_t> m = t_.match_forward(j);
        if (!m) break;
        j = *m;
      } else if (t_.is_punct(j, ';')) {
        return j;
      } else if (is_close(t_, j)) {
        break;
      }
    }
    t_.fail(keyword_, "the __shared__ declaration at " + t_.where(keyword_) +
                          " has no terminating ';': end it like `__shared__ float tile[16];`");
  }

  // Splits at commas outside brackets and template argument lists.
  std::vector<std::vector<std::size_t>> split_declarators(const std::vector<std::size_t>& kept) const {
    std::vector<std::vector<std::size_t>> parts(1);
    int depth = 0;
    int angle = 0;
    for (const std::size_t i : kept) {
      if (is_open(t_, i)) ++depth;
      if (is_close(t_, i)) --depth;
      if (depth == 0 && t_.is_punct(i, '<')) ++angle;
      if (depth == 0 && t_.is_punct(i, '>') && angle > 0) --angle;
      if (depth == 0 && angle == 0 && t_.is_punct(i, ',')) {
        parts.emplace_back();
        continue;
      }
      parts.back().push_back(i);
    }
    return parts;
  }

  [[noreturn]] void fail_unparsable(std::size_t at) const {
    t_.fail(at, "cannot understand the " + decl_text() + " declaration at " + t_.where(keyword_) +
                    ": write it as `__shared__ TYPE NAME[DIM1][DIM2];` (or `extern __shared__ TYPE "
                    "NAME[];`), using a type alias for function pointers");
  }

  [[noreturn]] void fail_initialised(std::size_t name, std::size_t at) const {
    const std::string n(t_.text(name));
    t_.fail(at, "__shared__ variable '" + n + "' at " + t_.where(name) +
                    " has an initialiser, but CUDA forbids initialising __shared__ variables: declare it "
                    "without one and assign it inside the kernel, e.g. `if (threadIdx.x == 0) " +
                    n + " = ...; __syncthreads();`");
  }

  // base_type: the type shared by all declarators (set from the first one); `float a[4], *b[2];`.
  Declarator parse_declarator(const std::vector<std::size_t>& part, std::vector<std::size_t>& base_type) const {
    if (part.empty()) fail_unparsable(keyword_);
    // The name is the last token before the first top-level '[', '=', '{' or '('.
    std::size_t q = 0;
    int angle = 0;
    for (; q < part.size(); ++q) {
      const std::size_t i = part[q];
      if (angle == 0 && (t_.is_punct(i, '[') || t_.is_punct(i, '=') || t_.is_punct(i, '{'))) break;
      if (t_.is_punct(i, '(')) {
        const bool type_operator =
            q > 0 && (t_.is_identifier(part[q - 1], "decltype") || t_.is_identifier(part[q - 1], "sizeof") ||
                      t_.is_identifier(part[q - 1], "alignof") || t_.is_identifier(part[q - 1], "__typeof__"));
        if (angle == 0 && !type_operator) break;
        const std::size_t close = *t_.match_forward(i);
        while (q + 1 < part.size() && part[q + 1] <= close) ++q;
        continue;
      }
      if (t_.is_punct(i, '<')) ++angle;
      if (t_.is_punct(i, '>') && angle > 0) --angle;
    }
    if (q == 0 || !t_.is_name(part[q - 1])) fail_unparsable(q < part.size() ? part[q] : part.back());
    Declarator d{part[q - 1], {}, {}};
    const std::vector<std::size_t> prefix(part.begin(), part.begin() + static_cast<std::ptrdiff_t>(q - 1));
    if (base_type.empty()) {
      if (prefix.empty()) {
        t_.fail(d.name, "the " + decl_text() + " declaration at " + t_.where(keyword_) +
                            " has no type: write it as `__shared__ TYPE " + std::string(t_.text(d.name)) + "...;`");
      }
      // The part before the first '*' is shared with the following declarators.
      std::size_t star = 0;
      while (star < prefix.size() && !t_.is_punct(prefix[star], '*')) ++star;
      base_type.assign(prefix.begin(), prefix.begin() + static_cast<std::ptrdiff_t>(star));
      d.type = prefix;
    } else {
      d.type = base_type;
      d.type.insert(d.type.end(), prefix.begin(), prefix.end());
    }
    // Array dimensions, then nothing (CUDA forbids initialisers).
    while (q < part.size() && t_.is_punct(part[q], '[')) {
      const std::size_t close = *t_.match_forward(part[q]);
      while (q < part.size() && part[q] <= close) d.dims.push_back(part[q++]);
    }
    if (q < part.size()) {
      const std::size_t i = part[q];
      if (t_.is_punct(i, '=') || t_.is_punct(i, '{') || t_.is_punct(i, '(')) fail_initialised(d.name, i);
      fail_unparsable(i);
    }
    return d;
  }

  // "[TILE][TILE]", without the spaces or line breaks the source may have between the brackets.
  std::string dims_text(const std::vector<std::size_t>& dims) const {
    std::string out;
    std::vector<std::size_t> group;
    for (const std::size_t i : dims) {
      group.push_back(i);
      if (i == *t_.match_forward(group.front())) {
        out += t_.collapsed_text(group);
        group.clear();
      }
    }
    return out;
  }

  std::string statement_for(const Declarator& d) const {
    const std::string name(t_.text(d.name));
    const std::string type = t_.collapsed_text(d.type);
    if (!is_extern_ && in_function_) {
      return "auto& " + name + " = ::gpulab::emu::shared_variable<" + type + dims_text(d.dims) + ">([]{});";
    }
    if (!is_extern_) {
      // Namespace scope: one copy per worker thread (a worker runs one block at a time),
      // registered so that the runtime poisons it at every block start.
      return "static thread_local " + type + " " + name + dims_text(d.dims) +
             "; static const ::gpulab::emu::namespace_shared_registration gpulab_shared_registration_" + name +
             "([]() -> void* { return &" + name + "; }, sizeof(" + name + "));";
    }
    // The first dimension is left empty (the launch gives the size); later ones make its elements
    // rows: `extern __shared__ half tile[][TILE + 8];` is a `half (*)[TILE + 8]`.
    if (d.dims.size() < 2 || d.dims[1] != *t_.match_forward(d.dims[0])) {
      t_.fail(d.name, "extern __shared__ array '" + name + "' at " + t_.where(d.name) +
                          " must be declared with empty first brackets, as in `extern __shared__ " + type + " " + name +
                          "[];` or `" + name + "[][N]` (its size comes from the launch configuration)");
    }
    const std::string element = type + dims_text(std::vector<std::size_t>(d.dims.begin() + 2, d.dims.end()));
    if (in_function_) {
      if (d.dims.size() == 2) return type + "* const " + name + " = ::gpulab::emu::dynamic_shared<" + type + ">();";
      return "auto* const " + name + " = ::gpulab::emu::dynamic_shared<" + element + ">();";
    }
    return "static ::gpulab::emu::dynamic_shared_array<" + element + "> " + name + ";";
  }

  const CodeTokens& t_;
  std::size_t keyword_;
  bool in_function_;
  bool in_define_;
  std::size_t first_;
  std::size_t semi_;
  bool is_extern_ = false;
};

// `extern __shared__ T name[...];` in a #define body, inside a brace the macro opens itself (a
// function body written by a macro, as cuda-samples' SharedMemory<T> specialisations are), ended
// by its ';' within the macro: rewritten as in a function. Any other __shared__ in a directive is
// left as written.
bool extern_array_in_macro_function(const CodeTokens& t, std::size_t keyword) {
  const int d = t.directive(keyword);
  if (t.directive_name(keyword) != "define" || keyword == 0 || !t.is_identifier(keyword - 1, "extern")) return false;
  bool inside = false;
  for (std::size_t j = keyword, depth = 0; j-- > 0 && t.directive(j) == d;) {
    if (t.is_punct(j, '}')) ++depth;
    if (t.is_punct(j, '{')) {
      if (depth == 0) {
        inside = true;
        break;
      }
      --depth;
    }
  }
  if (!inside) return false;
  for (std::size_t j = keyword + 1; j < t.size() && t.directive(j) == d; ++j) {
    if (t.is_punct(j, ';')) return true;
    if (t.is_punct(j, '{') || t.is_punct(j, '}')) return false;
  }
  return false;
}

}  // namespace

void collect_shared_declarations(const CodeTokens& tokens, const std::vector<bool>& in_function,
                                 std::vector<SourceEdit>& edits) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens.is_identifier(i, "__shared__")) continue;
    if (tokens.directive(i) != 0) {
      if (!extern_array_in_macro_function(tokens, i)) continue;  // any other use in a directive stays as written
      SharedDeclaration decl(tokens, i, true, true);
      if (std::optional<SourceEdit> edit = decl.rewrite()) edits.push_back(std::move(*edit));
      i = decl.last_token();
      continue;
    }
    SharedDeclaration decl(tokens, i, in_function[i]);
    if (std::optional<SourceEdit> edit = decl.rewrite()) edits.push_back(std::move(*edit));
    i = decl.last_token();
  }
}

}  // namespace gpulab::rewriter
