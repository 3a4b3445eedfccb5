// Inline PTX as C++ for the emulator: the instructions of an asm statement that the emulator
// runs (moves from special registers, membar/fence, bar.sync, prmt, brev, bfe, bfi, bfind, lop3,
// shfl.sync, vote.sync, activemask, ld/st (ld.global.nc and .v2/.v4 included), cvta, cp.async,
// and the mov/cvt/setp/selp/integer glue around them) become one C++ statement calling
// gpulab/emu/inline_ptx.hpp; anything else is refused with a message naming the instruction.
#pragma once

#include "rewriter/asm_statement.hpp"

#include <string>
#include <variant>

namespace gpulab::rewriter {

struct PtxRefusal {
  std::string message;  // names the instruction (or what could not be read) and what to do
};

// The C++ statement (`do { ... } while (0)`, on one line) that replaces the asm statement.
std::variant<std::string, PtxRefusal> translate_inline_ptx(const AsmStatement& statement);

}  // namespace gpulab::rewriter
