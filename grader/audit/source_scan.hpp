// The source-level part of the audit: host-side inline assembly (an `asm` statement with a
// non-empty template) and names reserved for the compiler's start-up code.
//
// Telling host from device asm: on the emulator the audited source is the rewritten one, in
// which the rewriter has already replaced every device-side asm (inline PTX), so every asm
// statement left in it, and in the program's own headers (their rewritten copies where the build
// made them), was compiled as host code. With nvcc, device asm is normal; when the source or its
// headers hold an asm statement at all, nvcc preprocesses the file for the host (`nvcc -cuda`:
// device functions' bodies removed, `__CUDA_ARCH__` branches resolved, macros expanded) and only
// asm statements that survive there, on lines of the program's own files, are host asm.
#pragma once
#include <filesystem>
#include <vector>

#include "audit/finding.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::audit {

// `source`: emulator: the rewritten .cu (its first #line names the original); cuda: the .cu.
// `build_folder`: where the emulator's build wrote the object (its headers/ holds the rewritten
// copies of the program's headers, where it made them). `run_compiler` runs nvcc -cuda (the
// sandbox); unset, nvcc runs directly.
std::vector<Finding> scan_source(const std::filesystem::path& source, toolchain::Backend backend,
                                 const std::filesystem::path& build_folder, const toolchain::CompileRunner& run_compiler);

// The asm statements of a text with a non-empty template (asm labels on declarations, `int f()
// asm("name")`, are not statements and are left out), by 1-based line, and the template's text.
struct AsmStatement {
  int line = 0;
  std::string text;  // the template as written, or the first tokens when it is not a literal
};
std::vector<AsmStatement> asm_statements(std::string_view text);

}  // namespace gpulab::audit
