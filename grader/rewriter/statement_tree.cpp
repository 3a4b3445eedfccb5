// Reads a function body into a tree of statements (statement_tree.hpp). Token by token, with the
// brackets matched; a simple statement ends at the first ';' outside brackets, so a lambda's body
// or a braced initialiser inside it is read past whole.
#include "rewriter/statement_tree.hpp"

#include <string_view>

#include "rewriter/declaration_parse.hpp"

namespace gpulab::rewriter {

std::size_t next_code_token(const CodeTokens& t, std::size_t i) {
  while (i < t.size() && t.directive(i) != 0) ++i;
  return i;
}

std::optional<std::size_t> closing_bracket(const CodeTokens& t, std::size_t open) {
  return t.match_forward_over_directives(open);
}

std::optional<std::size_t> statement_end(const CodeTokens& t, std::size_t first, std::size_t limit) {
  for (std::size_t i = first; i < limit; ++i) {
    if (t.directive(i) != 0) continue;
    if (t.is_punct(i, '(') || t.is_punct(i, '[') || t.is_punct(i, '{')) {
      const std::optional<std::size_t> close = closing_bracket(t, i);
      if (!close || *close >= limit) return std::nullopt;
      i = *close;
      continue;
    }
    if (t.is_punct(i, ')') || t.is_punct(i, ']') || t.is_punct(i, '}')) return std::nullopt;
    if (t.is_punct(i, ';')) return i;
  }
  return std::nullopt;
}

namespace {

Stmt make_stmt(StmtKind kind, std::size_t first, std::size_t last) {
  Stmt s;
  s.kind = kind;
  s.first = first;
  s.last = last;
  s.lead = first;
  return s;
}

bool is_conditional_directive(std::string_view name) {
  return name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" || name == "else" || name == "endif" ||
         name == "define" || name == "undef" || name == "elifdef" || name == "elifndef";
}

class Reader {
 public:
  Reader(const CodeTokens& t, FunctionBody& out) : t_(t), out_(out) {}

  // The statement starting at the first code token at or after `i`, ending before `limit`.
  std::optional<Stmt> statement(std::size_t i, std::size_t limit) {
    const std::size_t lead = pragma_lead(i);
    i = next_code_token(t_, i);
    if (i >= limit) return std::nullopt;
    std::optional<Stmt> s = statement_at(i, limit);
    if (s) s->lead = lead;
    return s;
  }

  // The statements of the compound statement whose '{' is `open`.
  std::optional<Stmt> compound(std::size_t open) {
    const std::optional<std::size_t> close = closing_bracket(t_, open);
    if (!close) return std::nullopt;
    Stmt s = make_stmt(StmtKind::compound, open, *close);
    note_directives(open + 1, *close);
    std::size_t i = open + 1;
    for (;;) {
      if (next_code_token(t_, i) >= *close) break;
      std::optional<Stmt> child = statement(i, *close);  // from i: the #pragma lines before it
      if (!child) return std::nullopt;
      i = child->last + 1;
      s.children.push_back(std::move(*child));
    }
    s.lead = open;
    return s;
  }

 private:
  // `#pragma` lines right before the first code token at or after i (between i and it): copied
  // with the statement they apply to (`#pragma unroll` before a loop). Returns that token when
  // there are none.
  std::size_t pragma_lead(std::size_t i) const {
    const std::size_t code = next_code_token(t_, i);
    std::size_t lead = code;
    while (lead > i) {
      const int d = t_.directive(lead - 1);
      if (d == 0 || t_.directive_name(lead - 1) != "pragma") break;
      while (lead > i && t_.directive(lead - 1) == d) --lead;
    }
    return lead;
  }

  void note_directives(std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      if (t_.directive(i) != 0 && is_conditional_directive(t_.directive_name(i))) {
        out_.has_conditional_directives = true;
        return;
      }
    }
  }

  std::optional<Stmt> statement_at(std::size_t i, std::size_t limit) {
    if (t_.is_punct(i, '{')) return compound(i);
    if (t_.is_punct(i, ';')) return make_stmt(StmtKind::empty, i, i);
    const std::string_view w = t_.is_identifier(i) ? t_.text(i) : std::string_view();
    if (w == "if") return if_statement(i, limit);
    if (w == "for") return for_statement(i, limit);
    if (w == "while") return while_statement(i, limit);
    if (w == "do") return do_statement(i, limit);
    if (w == "switch") return parenthesised_then_body(StmtKind::switch_, i, limit);
    if (w == "return") return jump(StmtKind::return_, i, limit);
    if (w == "break") return jump(StmtKind::break_, i, limit);
    if (w == "continue") return jump(StmtKind::continue_, i, limit);
    if (w == "goto") return jump(StmtKind::goto_, i, limit);
    if (w == "case" || w == "default") return case_label(i, limit);
    if (w == "try" || w == "catch" || w == "co_return" || w == "co_yield") return incomplete(i, limit);
    if (t_.is_name(i) && t_.is_punct(i + 1, ':') && !t_.is_scope_op(i + 1)) return make_stmt(StmtKind::label, i, i + 1);
    return simple(i, limit);
  }

  std::optional<Stmt> incomplete(std::size_t i, std::size_t limit) {
    out_.complete = false;
    const std::optional<std::size_t> end = statement_end(t_, i, limit);
    if (!end) return std::nullopt;
    return make_stmt(StmtKind::other, i, *end);
  }

  std::optional<Stmt> jump(StmtKind kind, std::size_t i, std::size_t limit) {
    const std::optional<std::size_t> end = statement_end(t_, i, limit);
    if (!end) return std::nullopt;
    Stmt s = make_stmt(kind, i, *end);
    s.cond = TokenRange{i + 1, *end - 1};  // a return's expression
    return s;
  }

  std::optional<Stmt> case_label(std::size_t i, std::size_t limit) {
    for (std::size_t j = i + 1; j < limit; ++j) {
      if (t_.is_scope_op(j)) {
        ++j;
        continue;
      }
      if (t_.is_punct(j, '(') || t_.is_punct(j, '[')) {
        const std::optional<std::size_t> close = closing_bracket(t_, j);
        if (!close) return std::nullopt;
        j = *close;
        continue;
      }
      if (t_.is_punct(j, ':')) return make_stmt(StmtKind::label, i, j);
    }
    return std::nullopt;
  }

  // `(`...`)` after token i; its range inside.
  std::optional<std::size_t> parentheses(std::size_t i, TokenRange& inside) {
    const std::size_t open = next_code_token(t_, i);
    if (!t_.is_punct(open, '(')) return std::nullopt;
    const std::optional<std::size_t> close = closing_bracket(t_, open);
    if (!close) return std::nullopt;
    inside = TokenRange{open + 1, *close - 1};
    return close;
  }

  bool has_top_level(TokenRange r, char c) const {
    for (std::size_t j = r.first; !r.empty() && j <= r.last; ++j) {
      if (t_.is_punct(j, '(') || t_.is_punct(j, '[') || t_.is_punct(j, '{')) {
        const std::optional<std::size_t> close = closing_bracket(t_, j);
        if (!close) return true;
        j = *close;
        continue;
      }
      if (t_.is_punct(j, c) && !(c == ':' && (t_.is_scope_op(j) || (j > 0 && t_.is_scope_op(j - 1))))) return true;
    }
    return false;
  }

  std::optional<Stmt> if_statement(std::size_t i, std::size_t limit) {
    Stmt s = make_stmt(StmtKind::if_, i, i);
    std::size_t j = i + 1;
    if (t_.is_identifier(next_code_token(t_, j), "constexpr")) {
      s.constexpr_if = true;
      j = next_code_token(t_, j) + 1;
    }
    const std::optional<std::size_t> close = parentheses(j, s.cond);
    if (!close) return std::nullopt;
    if (has_top_level(s.cond, ';')) out_.complete = false;  // `if (init; cond)`: read, not understood
    std::optional<Stmt> then = statement(*close + 1, limit);
    if (!then) return std::nullopt;
    s.last = then->last;
    s.children.push_back(std::move(*then));
    const std::size_t e = next_code_token(t_, s.last + 1);
    if (e < limit && t_.is_identifier(e, "else")) {
      std::optional<Stmt> otherwise = statement(e + 1, limit);
      if (!otherwise) return std::nullopt;
      s.last = otherwise->last;
      s.children.push_back(std::move(*otherwise));
    }
    if (has_top_level(s.cond, ';')) s.kind = StmtKind::other;
    return s;
  }

  std::optional<Stmt> for_statement(std::size_t i, std::size_t limit) {
    TokenRange inside;
    const std::optional<std::size_t> close = parentheses(i + 1, inside);
    if (!close) return std::nullopt;
    std::optional<Stmt> body = statement(*close + 1, limit);
    if (!body) return std::nullopt;
    if (!has_top_level(inside, ';')) {  // for (declaration : range)
      Stmt s = make_stmt(StmtKind::range_for, i, body->last);
      s.cond = inside;
      s.children.push_back(std::move(*body));
      return s;
    }
    Stmt s = make_stmt(StmtKind::for_, i, body->last);
    std::optional<Stmt> init;
    const std::size_t init_first = next_code_token(t_, inside.first);
    if (t_.is_punct(init_first, ';')) {
      init = make_stmt(StmtKind::empty, init_first, init_first);
    } else {
      init = simple(init_first, *close);
    }
    if (!init) return std::nullopt;
    const std::optional<std::size_t> second = statement_end(t_, init->last + 1, *close);
    if (!second) return std::nullopt;
    s.cond = TokenRange{init->last + 1, *second - 1};
    s.inc = TokenRange{*second + 1, *close - 1};
    s.children.push_back(std::move(*init));
    s.children.push_back(std::move(*body));
    return s;
  }

  std::optional<Stmt> while_statement(std::size_t i, std::size_t limit) {
    return parenthesised_then_body(StmtKind::while_, i, limit);
  }

  std::optional<Stmt> parenthesised_then_body(StmtKind kind, std::size_t i, std::size_t limit) {
    Stmt s = make_stmt(kind, i, i);
    const std::optional<std::size_t> close = parentheses(i + 1, s.cond);
    if (!close) return std::nullopt;
    if (kind == StmtKind::while_ && looks_like_declaration(t_, s.cond.first, s.cond.last)) out_.complete = false;
    std::optional<Stmt> body = statement(*close + 1, limit);
    if (!body) return std::nullopt;
    s.last = body->last;
    s.children.push_back(std::move(*body));
    return s;
  }

  std::optional<Stmt> do_statement(std::size_t i, std::size_t limit) {
    std::optional<Stmt> body = statement(i + 1, limit);
    if (!body) return std::nullopt;
    const std::size_t w = next_code_token(t_, body->last + 1);
    if (!t_.is_identifier(w, "while")) return std::nullopt;
    Stmt s = make_stmt(StmtKind::do_, i, i);
    const std::optional<std::size_t> close = parentheses(w + 1, s.cond);
    if (!close) return std::nullopt;
    const std::size_t semi = next_code_token(t_, *close + 1);
    if (!t_.is_punct(semi, ';')) return std::nullopt;
    s.last = semi;
    s.children.push_back(std::move(*body));
    return s;
  }

  std::optional<Stmt> simple(std::size_t i, std::size_t limit) {
    const std::optional<std::size_t> end = statement_end(t_, i, limit);
    if (!end) return std::nullopt;
    Stmt s = make_stmt(StmtKind::expression, i, *end);
    const std::string_view w = t_.is_identifier(i) ? t_.text(i) : std::string_view();
    if (w == "using" || w == "typedef" || w == "static_assert" || w == "namespace" || w == "template") {
      s.kind = StmtKind::type_declaration;
    } else if ((w == "struct" || w == "class" || w == "union" || w == "enum") && type_definition(i, *end)) {
      s.kind = StmtKind::type_declaration;
    } else if (*end > i && parse_declaration(t_, i, *end - 1)) {
      s.kind = StmtKind::declaration;
    } else if (*end > i && looks_like_declaration(t_, i, *end - 1)) {
      s.kind = StmtKind::other;
      out_.complete = false;
    }
    return s;
  }

  // `struct S { ... };` (no variable declared after the '}').
  bool type_definition(std::size_t i, std::size_t end) const {
    for (std::size_t j = i + 1; j < end; ++j) {
      if (t_.is_punct(j, '{')) {
        const std::optional<std::size_t> close = closing_bracket(t_, j);
        return close && next_code_token(t_, *close + 1) == end;
      }
    }
    return false;
  }

  const CodeTokens& t_;
  FunctionBody& out_;
};

}  // namespace

std::optional<FunctionBody> read_function_body(const CodeTokens& t, std::size_t open) {
  FunctionBody body;
  Reader reader(t, body);
  std::optional<Stmt> s = reader.compound(open);
  if (!s) return std::nullopt;
  body.body = std::move(*s);
  return body;
}

}  // namespace gpulab::rewriter
