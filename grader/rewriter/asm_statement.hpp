// The parts of one GNU-style inline assembly statement in CUDA code,
//   asm volatile("instruction text" : outputs : inputs : clobbers);
// read from the tokens between its parentheses: the instruction text (adjacent string literals
// joined, C escapes decoded) and each operand's name, constraint and C++ expression.
#pragma once

#include "rewriter/code_tokens.hpp"

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace gpulab::rewriter {

struct AsmOperand {
  std::string name;        // `[name]` before the constraint; empty when there is none
  std::string constraint;  // as written between the quotes: "=r", "+l", "r", "n", "=&r", ...
  std::string expression;  // the C++ expression between the parentheses, whitespace collapsed
};

struct AsmStatement {
  std::string text;                 // the instruction text, escapes decoded
  std::vector<AsmOperand> outputs;  // %0 .. %(outputs - 1)
  std::vector<AsmOperand> inputs;   // numbered after the outputs
};

// `open` and `close` are the statement's parentheses. A string names what could not be read.
std::variant<AsmStatement, std::string> parse_asm_statement(const CodeTokens& tokens, std::size_t open,
                                                            std::size_t close);

// Whether an instruction text is PTX rather than the host's assembly: it opens a `{ }` scope or
// declares a register, its first instruction is predicated (`@p`) or is a PTX opcode with its
// suffixes (`mov.u32`, `bar.sync`; x86's and Arm's mnemonics carry no `.suffix` of these names),
// one of PTX's bare instructions (`trap`, `exit`, `brkpt`), or it reads a special register
// (`%laneid`, `%tid.x`).
bool looks_like_ptx(const std::string& text);

}  // namespace gpulab::rewriter
