// Reads what a stretch of code does with names, without parsing its expressions: each name that may
// be a variable and whether it is read, assigned, incremented, has its address taken or is passed
// to a call; the calls it makes; the lambdas it defines. The region transformation
// (region_analysis.hpp) needs no more of an expression than this.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "rewriter/code_tokens.hpp"
#include "rewriter/statement_tree.hpp"

namespace gpulab::rewriter {

// How an occurrence of a name uses the object the name designates.
enum class Use {
  read,
  assign,       // `x = ...`, `x += ...`, `x[i] = ...`, `x.f = ...` (the object itself changes)
  increment,    // `++x`, `x--`, `x[i]++`
  address,      // `&x`, `&x[i]`: a pointer to it that may be written through later
  argument,     // `f(x)` or `f(a, x)`: the whole argument (a reference parameter may change it)
  member_call,  // `x.f(...)`: may change it
  through,      // `x[i] = ...`, `*x`-like writes reached through `->`, `[` or a call of x: changes
                // what x points to, or x itself if x is an array (the caller tells which)
};

struct Occurrence {
  std::size_t token = 0;
  Use use = Use::read;
  bool subscripted = false;   // followed by `[` (an array element, or through a pointer)
  std::size_t call_open = 0;  // Use::argument: the '(' of the call
};

struct Lambda {
  std::size_t introducer_open = 0, introducer_close = 0;  // `[` ... `]`
  std::size_t body_open = 0, body_close = 0;              // `{` ... `}`
  bool captures_nothing = false;                          // `[]`
  bool captures_by_reference_only = false;                // `[&]`
};

struct Call {
  std::size_t name = 0;  // the callee's (last) name
  std::size_t open = 0;  // its '('
  bool member = false;   // `x.f(` or `p->f(`
};

// Names in tokens first..last that may be variables: not members (`.x`, `->x`), not qualified
// (`a::x`, `x::y`), not keywords, not the callee of a call.
std::vector<Occurrence> name_occurrences(const CodeTokens& t, TokenRange r);
std::vector<Call> calls(const CodeTokens& t, TokenRange r);
std::vector<Lambda> lambdas(const CodeTokens& t, TokenRange r);

// Token i is a unary `*` or `&` (not multiplication, bitwise and, `&&`).
bool is_unary_operator(const CodeTokens& t, std::size_t i);
// An assignment operator (`=`, `+=`, `<<=`, ...) starts at token i; `width` is its token count.
bool is_assignment_at(const CodeTokens& t, std::size_t i, std::size_t* width = nullptr);
// `++` or `--` at token i.
bool is_increment_at(const CodeTokens& t, std::size_t i);

}  // namespace gpulab::rewriter
