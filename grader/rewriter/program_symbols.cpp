// Collects a file's functions, macros, constants, types and writable variables (program_symbols.hpp)
// from its tokens and scopes, then which functions and macros synchronise threads.
#include "rewriter/program_symbols.hpp"

#include <initializer_list>

#include "rewriter/declaration_parse.hpp"
#include "rewriter/scope_tracker.hpp"
#include "rewriter/statement_tree.hpp"

namespace gpulab::rewriter {
namespace {

bool one_of(std::string_view w, std::initializer_list<std::string_view> words) {
  for (std::string_view x : words)
    if (w == x) return true;
  return false;
}

class SymbolCollector {
 public:
  explicit SymbolCollector(const CodeTokens& t) : t_(t), scopes_(scope_info(t)) {}

  ProgramSymbols collect() {
    for (std::size_t i = 0; i < t_.size(); ++i) {
      if (t_.directive(i) != 0) {
        i = macro(i);
        continue;
      }
      if (scopes_.scope[i] == TokenScope::Function) continue;
      const std::string_view w = t_.is_identifier(i) ? t_.text(i) : std::string_view();
      if (one_of(w, {"struct", "class", "union", "enum"}) && t_.is_name(i + 1))
        out_.types.insert(std::string(t_.text(i + 1)));
      if (w == "enum") enumerators(i);
      if (w == "using" && t_.is_name(i + 1) && t_.is_punct(i + 2, '=')) out_.types.insert(std::string(t_.text(i + 1)));
      if (w == "typedef") typedef_name(i);
      if (t_.is_punct(i, '{') && scopes_.brace[i] == BraceKind::Function) function(i);
      if (t_.is_punct(i, ';')) variables(i);
    }
    synchronising();
    return std::move(out_);
  }

 private:
  // `#define NAME body` / `#define NAME(params) body`: returns the directive's last token.
  std::size_t macro(std::size_t i) {
    const int d = t_.directive(i);
    std::size_t end = i;
    while (end + 1 < t_.size() && t_.directive(end + 1) == d) ++end;
    if (t_.directive_name(i) == "define" && i + 2 <= end && t_.is_identifier(i + 2)) {
      std::size_t body = i + 3;
      MacroSymbol& m = out_.macros[std::string(t_.text(i + 2))];
      m = MacroSymbol{};
      if (t_.is_punct(body, '(') && t_.adjacent(i + 2, body)) {
        while (body <= end && !t_.is_punct(body, ')')) {
          if (t_.is_identifier(body)) m.parameters.push_back(std::string(t_.text(body)));
          ++body;
        }
        ++body;
      }
      for (std::size_t j = body; j <= end; ++j) m.body.push_back(j);
    }
    return end;
  }

  void enumerators(std::size_t i) {
    std::size_t j = i + 1;
    while (j < t_.size() && !t_.is_punct(j, '{') && !t_.is_punct(j, ';')) ++j;
    if (!t_.is_punct(j, '{')) return;
    const std::optional<std::size_t> close = closing_bracket(t_, j);
    if (!close) return;
    bool expect_name = true;
    for (std::size_t k = j + 1; k < *close; ++k) {
      if (expect_name && t_.is_name(k)) out_.constants.insert(std::string(t_.text(k)));
      expect_name = false;
      if (t_.is_punct(k, '(') || t_.is_punct(k, '[') || t_.is_punct(k, '{')) {
        k = closing_bracket(t_, k).value_or(k);
      } else if (t_.is_punct(k, ',')) {
        expect_name = true;
      }
    }
  }

  void typedef_name(std::size_t i) {
    const std::optional<std::size_t> end = statement_end(t_, i, t_.size());
    if (!end) return;
    for (std::size_t j = *end; j-- > i;) {
      if (t_.is_name(j)) {
        out_.types.insert(std::string(t_.text(j)));
        return;
      }
      if (!t_.is_punct(j, ']') && !t_.is_punct(j, ')')) return;
      j = t_.match_backward(j).value_or(j);
    }
  }

  // The function whose body opens at `open`: its name is the token before the '(' of its parameters.
  void function(std::size_t open) {
    std::size_t j = open;
    while (j > 0) {  // back over const, noexcept(...), -> type, attributes
      --j;
      if (t_.is_punct(j, ')')) {
        const std::optional<std::size_t> paren = t_.match_backward(j);
        if (!paren || *paren == 0) return;
        if (t_.is_identifier(*paren - 1) &&
            one_of(t_.text(*paren - 1), {"noexcept", "__attribute__", "decltype", "__launch_bounds__", "throw"})) {
          j = *paren - 1;
          continue;
        }
        if (!t_.is_name(*paren - 1)) return;
        FunctionSymbol f;
        f.body_open = open;
        f.body_close = closing_bracket(t_, open).value_or(open);
        f.reference_parameter = has_reference_parameter(*paren, j);
        out_.functions[std::string(t_.text(*paren - 1))].push_back(f);
        return;
      }
      if (t_.is_punct(j, ';') || t_.is_punct(j, '{') || t_.is_punct(j, '}') || t_.is_punct(j, '=')) return;
    }
  }

  bool has_reference_parameter(std::size_t open, std::size_t close) const {
    bool reference = false, constant = false;
    for (std::size_t k = open + 1; k <= close; ++k) {
      if (t_.is_punct(k, '(') || t_.is_punct(k, '[') || t_.is_punct(k, '{') || t_.is_punct(k, '<')) {
        if (!t_.is_punct(k, '<')) k = closing_bracket(t_, k).value_or(k);
        continue;
      }
      if (t_.is_identifier(k, "const")) constant = true;
      if (t_.is_punct(k, '&')) reference = true;
      if (t_.is_punct(k, ',') || k == close) {
        if (reference && !constant) return true;
        reference = constant = false;
      }
    }
    return false;
  }

  // A namespace- or class-scope statement ending at `semi`: the variables it declares.
  void variables(std::size_t semi) {
    std::size_t first = semi;
    while (first > 0 && t_.directive(first - 1) == 0 && scopes_.scope[first - 1] != TokenScope::Function &&
           !t_.is_punct(first - 1, ';') && !t_.is_punct(first - 1, '{') && !t_.is_punct(first - 1, '}') &&
           !(t_.is_punct(first - 1, ':') && !t_.is_scope_op(first - 2) && !t_.is_scope_op(first - 1))) {
      --first;
    }
    if (t_.is_identifier(first, "template")) return;
    if (t_.is_identifier(first, "extern") && first + 1 < semi && t_[first + 1].kind == TokenKind::String) first += 2;
    const std::optional<Declaration> d = parse_declaration(t_, first, semi - 1);
    if (!d) return;
    bool device_constant = d->is_constexpr;
    for (std::size_t k = d->specifiers.first; k <= d->specifiers.last; ++k)
      device_constant |= t_.is_identifier(k, "__constant__");
    for (const Declarator& dr : d->declarators) {
      // `const T* p` is a variable (its pointee is const); `T* const p` and `const T x` are not.
      bool constant = device_constant || d->is_const;
      for (std::size_t k = dr.tokens.first; k < dr.name; ++k) {
        if (t_.is_punct(k, '*')) constant = device_constant;
        if (t_.is_identifier(k, "const")) constant = true;
      }
      (constant ? out_.constants : out_.mutable_variables).insert(std::string(t_.text(dr.name)));
    }
  }

  bool body_synchronises(std::size_t first, std::size_t last) const {
    for (std::size_t k = first; k <= last && k < t_.size(); ++k) {
      if (t_[k].kind == TokenKind::String) {
        const std::string_view s = t_.text(k);
        for (std::string_view ptx : {"bar.", "barrier", "shfl", "vote", "activemask", "match."})
          if (s.find(ptx) != std::string_view::npos) return true;
      }
      if (!t_.is_identifier(k)) continue;
      const std::string_view w = t_.text(k);
      if (is_sync_builtin(w) || is_group_wait_name(w) || out_.synchronising.count(w)) return true;
      if (is_group_wait_member(w) && k > 0 && t_.is_punct(k + 1, '(') &&
          (t_.is_punct(k - 1, '.') || t_.is_arrow_head(k - 1) || t_.is_punct(k - 1, ':')))
        return true;
    }
    return false;
  }

  void synchronising() {
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [name, definitions] : out_.functions) {
        if (out_.synchronising.count(name)) continue;
        for (const FunctionSymbol& f : definitions) {
          if (body_synchronises(f.body_open, f.body_close)) {
            out_.synchronising.insert(name);
            changed = true;
            break;
          }
        }
      }
      for (const auto& [name, macro] : out_.macros) {
        if (out_.synchronising.count(name) || macro.body.empty()) continue;
        if (body_synchronises(macro.body.front(), macro.body.back())) {
          out_.synchronising.insert(name);
          changed = true;
        }
      }
    }
  }

  const CodeTokens& t_;
  ScopeInfo scopes_;
  ProgramSymbols out_;
};

}  // namespace

ProgramSymbols program_symbols(const CodeTokens& t) { return SymbolCollector(t).collect(); }

ProgramNames program_names(const std::vector<std::string_view>& texts) {
  std::vector<CodeTokens> files;
  std::vector<ProgramSymbols> symbols;
  files.reserve(texts.size());
  for (const std::string_view text : texts) {
    files.emplace_back(text, "");
    symbols.push_back(program_symbols(files.back()));
  }
  ProgramNames out;
  for (const ProgramSymbols& f : symbols) {
    out.synchronising.insert(f.synchronising.begin(), f.synchronising.end());
    out.constants.insert(f.constants.begin(), f.constants.end());
    out.types.insert(f.types.begin(), f.types.end());
    out.mutable_variables.insert(f.mutable_variables.begin(), f.mutable_variables.end());
  }
  // A macro whose body is a literal (or a parenthesised constant expression of literals) is a constant.
  for (std::size_t k = 0; k < files.size(); ++k) {
    for (const auto& [name, macro] : symbols[k].macros) {
      bool literal = !macro.body.empty() && macro.parameters.empty();
      for (const std::size_t b : macro.body) {
        const TokenKind kind = files[k][b].kind;
        literal =
            literal &&
            (kind == TokenKind::Number ||
             (kind == TokenKind::Punct &&
              std::string_view("()+-*/%<>&|^~").find(files[k].source()[files[k][b].begin]) != std::string_view::npos));
      }
      if (literal) out.constants.insert(name);
    }
  }
  // A name that one file declares constant and another as a variable (each file's own, at namespace
  // scope) is not known to be constant.
  for (const std::string& v : out.mutable_variables) out.constants.erase(v);
  // A function of one file that calls another file's synchronising function synchronises too.
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t k = 0; k < files.size(); ++k) {
      for (const auto& [name, definitions] : symbols[k].functions) {
        if (out.synchronising.count(name)) continue;
        for (const FunctionSymbol& f : definitions) {
          for (std::size_t b = f.body_open; b <= f.body_close && !out.synchronising.count(name); ++b) {
            if (files[k].is_name(b) && out.synchronising.count(files[k].text(b))) {
              out.synchronising.insert(name);
              changed = true;
            }
          }
        }
      }
    }
  }
  return out;
}

void add_program_names(ProgramSymbols& symbols, const ProgramNames& program) {
  symbols.synchronising.insert(program.synchronising.begin(), program.synchronising.end());
  for (const std::string& c : program.constants)
    if (!symbols.macros.count(c) && !symbols.mutable_variables.count(c)) symbols.constants.insert(c);
  symbols.types.insert(program.types.begin(), program.types.end());
  symbols.mutable_variables.insert(program.mutable_variables.begin(), program.mutable_variables.end());
}

}  // namespace gpulab::rewriter
