// Reads simple declarations (declaration_parse.hpp): a run of specifiers with exactly one type in
// it, then declarators separated by top-level commas, each a name with pointer operators before it,
// array bounds after it, and an optional initializer.
#include "rewriter/declaration_parse.hpp"

#include <string_view>

namespace gpulab::rewriter {
namespace {

bool one_of(std::string_view w, std::initializer_list<std::string_view> words) {
  for (std::string_view x : words)
    if (w == x) return true;
  return false;
}

bool is_type_keyword(std::string_view w) {
  return one_of(w, {"void", "bool", "char", "char8_t", "char16_t", "char32_t", "wchar_t", "short", "int", "long",
                    "float", "double", "signed", "unsigned", "auto", "__int128"});
}
bool is_qualifier(std::string_view w) {
  return one_of(w, {"const", "volatile", "__restrict__", "__restrict", "restrict"});
}
// Specifiers that say where or how long a variable lives, not what it is.
bool is_storage(std::string_view w) {
  return one_of(
      w, {"static", "extern", "register", "thread_local", "mutable", "constexpr", "constinit", "inline", "__shared__",
          "__device__", "__constant__", "__managed__", "__host__", "__forceinline__", "__noinline__"});
}
bool is_attribute_with_arguments(std::string_view w) {
  return one_of(w, {"__align__", "alignas", "__attribute__", "__declspec"});
}

class DeclarationReader {
 public:
  DeclarationReader(const CodeTokens& t, std::size_t first, std::size_t last) : t_(t), first_(first), last_(last) {}

  std::optional<Declaration> read() {
    Declaration d;
    std::size_t i = first_;
    if (!specifiers(i, d)) return std::nullopt;
    d.specifiers = TokenRange{first_, i - 1};
    for (;;) {
      Declarator dr;
      if (!declarator(i, dr)) return std::nullopt;
      d.declarators.push_back(dr);
      if (i > last_) break;
      if (!t_.is_punct(i, ',')) return std::nullopt;
      ++i;
    }
    return d;
  }

  // The specifiers: true when they hold a type.
  bool specifiers(std::size_t& i, Declaration& d) {
    bool type = false;
    while (i <= last_) {
      if (t_.directive(i) != 0) return false;
      const std::string_view w = t_.is_identifier(i) ? t_.text(i) : std::string_view();
      if (w.empty() && !(t_.is_scope_op(i) && !type)) break;
      if (is_attribute_with_arguments(w) && t_.is_punct(i + 1, '(')) {
        if (!skip(i + 1, i)) return false;
        continue;
      }
      if (is_qualifier(w)) {
        d.is_const |= w == "const";
        ++i;
        continue;
      }
      if (is_storage(w)) {
        d.is_static |= w == "static";
        d.is_extern |= w == "extern";
        d.is_constexpr |= w == "constexpr";
        d.is_shared |= w == "__shared__";
        d.other_storage |= one_of(
            w, {"register", "thread_local", "mutable", "__device__", "__constant__", "__managed__", "constinit"});
        ++i;
        continue;
      }
      if (is_type_keyword(w)) {
        d.is_auto |= w == "auto";
        type = true;
        ++i;
        continue;
      }
      if (w == "decltype" && t_.is_punct(i + 1, '(')) {
        if (type) return false;
        if (t_.is_identifier(i + 2, "auto")) d.is_auto = true;
        if (!skip(i + 1, i)) return false;
        type = true;
        continue;
      }
      if (type) break;  // the declarator's name
      if (w == "struct" || w == "class" || w == "union" || w == "enum" || w == "typename") ++i;
      if (!qualified_name(i)) return false;
      type = true;
    }
    return type;
  }

  // [::] name [<...>] { :: [template] name [<...>] }
  bool qualified_name(std::size_t& i) {
    if (t_.is_scope_op(i)) i += 2;
    for (;;) {
      if (!t_.is_name(i)) return false;
      ++i;
      if (t_.is_punct(i, '<') && !template_arguments(i)) return false;
      if (!t_.is_scope_op(i)) return true;
      i += 2;
      if (t_.is_identifier(i, "template")) ++i;
    }
  }

  // Skips `<...>` starting at i (nested angles and brackets counted).
  bool template_arguments(std::size_t& i) {
    int depth = 0;
    for (; i <= last_; ++i) {
      if (t_.is_punct(i, '(') || t_.is_punct(i, '[') || t_.is_punct(i, '{')) {
        const std::optional<std::size_t> close = closing_bracket(t_, i);
        if (!close || *close > last_) return false;
        i = *close;
        continue;
      }
      if (t_.is_punct(i, ';') || t_.is_punct(i, '=')) return false;
      if (t_.is_punct(i, '<')) ++depth;
      if (t_.is_punct(i, '>') && !t_.is_arrow_head(i) && --depth == 0) {
        ++i;
        return true;
      }
    }
    return false;
  }

  bool skip(std::size_t open, std::size_t& i) {
    const std::optional<std::size_t> close = closing_bracket(t_, open);
    if (!close || *close > last_) return false;
    i = *close + 1;
    return true;
  }

  bool pointer_operators(std::size_t& i, Declarator& dr) {
    while (i <= last_) {
      if (t_.is_punct(i, '*')) {
        ++i;
      } else if (t_.is_punct(i, '&')) {
        dr.reference = true;
        ++i;
      } else if (t_.is_identifier(i) && is_qualifier(t_.text(i))) {
        ++i;
      } else if (t_.is_identifier(i) && is_attribute_with_arguments(t_.text(i)) && t_.is_punct(i + 1, '(')) {
        if (!skip(i + 1, i)) return false;
      } else {
        break;
      }
    }
    return true;
  }

  bool declarator(std::size_t& i, Declarator& dr) {
    const std::size_t start = i;
    if (!pointer_operators(i, dr)) return false;
    if (t_.is_punct(i, '(')) {  // (*name) or (&name), then suffixes
      ++i;
      Declarator inner;
      if (!pointer_operators(i, inner) || i == start + 1) return false;
      dr.reference |= inner.reference;
      if (!t_.is_name(i)) return false;
      dr.name = i++;
      if (!t_.is_punct(i, ')')) return false;
      ++i;
    } else {
      if (!t_.is_name(i)) return false;
      dr.name = i++;
    }
    while (i <= last_ && t_.is_punct(i, '[')) {
      dr.array = dr.array || i == dr.name + 1;
      if (!skip(i, i)) return false;
    }
    dr.tokens = TokenRange{start, i - 1};
    if (i > last_ || t_.is_punct(i, ',')) return true;
    if (t_.is_punct(i, '=') && !t_.is_punct(i + 1, '=')) {
      const std::size_t begin = ++i;
      while (i <= last_ && !t_.is_punct(i, ',')) {
        if (t_.is_punct(i, '(') || t_.is_punct(i, '[') || t_.is_punct(i, '{')) {
          if (!skip(i, i)) return false;
          continue;
        }
        ++i;
      }
      if (i == begin) return false;
      dr.init = Declarator::Init::copy;
      dr.init_tokens = TokenRange{begin, i - 1};
      return true;
    }
    if (t_.is_punct(i, '(') || t_.is_punct(i, '{')) {
      const std::size_t open = i;
      if (!skip(open, i)) return false;
      dr.init = t_.is_punct(open, '(') ? Declarator::Init::paren : Declarator::Init::brace;
      dr.init_tokens = TokenRange{open, i - 1};
      return i > last_ || t_.is_punct(i, ',');
    }
    return false;
  }

 private:
  const CodeTokens& t_;
  std::size_t first_, last_;
};

}  // namespace

std::optional<Declaration> parse_declaration(const CodeTokens& t, std::size_t first, std::size_t last) {
  if (last < first) return std::nullopt;
  return DeclarationReader(t, first, last).read();
}

bool looks_like_declaration(const CodeTokens& t, std::size_t first, std::size_t last) {
  if (last < first) return false;
  DeclarationReader reader(t, first, last);
  Declaration d;
  std::size_t i = first;
  if (!reader.specifiers(i, d) || i > last) return false;
  // `T* x`, `T& x`, `T (*x)...`; not `f(x)` or `f(&x, y)`, calls.
  while (i <= last && (t.is_punct(i, '*') || t.is_punct(i, '&'))) ++i;
  if (t.is_punct(i, '(')) {  // `T (*x)[4]`, never `f(x)`
    const std::size_t open = i++;
    while (i <= last && (t.is_punct(i, '*') || t.is_punct(i, '&'))) ++i;
    return i > open + 1 && i + 1 <= last && t.is_name(i) && t.is_punct(i + 1, ')');
  }
  return i <= last && t.is_name(i);
}

TokenRange initializer_value(const Declarator& d) {
  if (d.init == Declarator::Init::copy) return d.init_tokens;
  if (d.init == Declarator::Init::none) return TokenRange{};
  return TokenRange{d.init_tokens.first + 1, d.init_tokens.last - 1};
}

std::string declared_type(const CodeTokens& t, const Declaration& decl, const Declarator& d) {
  std::vector<std::size_t> kept;
  for (std::size_t i = decl.specifiers.first; i <= decl.specifiers.last; ++i) {
    if (t.is_identifier(i) && is_storage(t.text(i))) continue;
    if (t.is_identifier(i) && is_attribute_with_arguments(t.text(i)) && t.is_punct(i + 1, '(')) {
      i = *closing_bracket(t, i + 1);
      continue;
    }
    kept.push_back(i);
  }
  for (std::size_t i = d.tokens.first; !d.tokens.empty() && i <= d.tokens.last; ++i) {
    if (i != d.name) kept.push_back(i);
  }
  return t.collapsed_text(kept);
}

}  // namespace gpulab::rewriter
