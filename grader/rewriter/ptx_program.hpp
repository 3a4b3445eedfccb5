// The instructions of an inline PTX template, read into a small syntax tree: register
// declarations (`.reg .pred p;`), then instructions with their guard (`@p`, `@!p`), dotted opcode
// and operands. `%N` and `%[name]` are the asm statement's operands; `%%x` (and nvcc's `%x`) a
// register named %x. Only what the emulator's translation needs is read: a template it cannot
// read is refused with a message naming the statement.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace gpulab::rewriter {

struct PtxOperand {
  enum class Kind {
    asm_operand,  // %N of the asm statement (index)
    name,         // a register: declared by the template, or special (%laneid, %tid.x)
    integer,      // an integer literal (text: as C++)
    f32_bits,     // 0fXXXXXXXX (text: the hex digits)
    f64_bits,     // 0dXXXXXXXXXXXXXXXX
    real,         // 1.5, 1e-3 (text: as C++)
    address,      // [base], [base+offset], [offset]: parts holds the base, if any
    vector,       // {a, b, c, d}: parts holds the elements
    sink,         // _
  };
  Kind kind = Kind::sink;
  int index = -1;
  std::string text;
  bool negated = false;           // !p
  long long offset = 0;           // address
  std::vector<PtxOperand> parts;  // address base, vector elements
  std::vector<PtxOperand> pair;   // d|p: the predicate after the bar
};

struct PtxInstruction {
  std::string text;                 // as written, for messages (operands as %N)
  std::vector<PtxOperand> guard;    // @p / @!p: one name operand
  std::vector<std::string> opcode;  // "shfl.sync.idx.b32" -> shfl, sync, idx, b32
  std::vector<PtxOperand> operands;
};

struct PtxRegister {
  std::string name;
  std::string type;  // "pred", "u32", "b64", "f32", ...
};

struct PtxProgram {
  std::vector<PtxRegister> registers;
  std::vector<PtxInstruction> instructions;
};

// `operand_names`: the [name] of each asm operand (empty where none), in %N order.
std::variant<PtxProgram, std::string> parse_ptx(std::string_view text, const std::vector<std::string>& operand_names);

// The opcode as written ("shfl.sync.idx.b32").
std::string opcode_text(const PtxInstruction& instruction);

}  // namespace gpulab::rewriter
