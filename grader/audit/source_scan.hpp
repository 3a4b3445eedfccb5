// The source-level part of the audit: host-side inline assembly (an `asm` statement with a
// non-empty template) and names reserved for the compiler's start-up code.
//
// Which asm statements the host compiler compiled: the submission's file and its own headers are
// read first; only when one of them holds an asm statement with a non-empty template is the file
// preprocessed again as its host compiler saw it, and the asm statements left there, on lines of
// the program's own files, are the findings. On the emulator that is the rewritten source through
// g++ -E (the rewriter has already replaced the inline PTX: what is left is host code, e.g.
// namespace-scope assembly or a host function's `rdtsc`; branches the preprocessor drops are gone). With nvcc, where inline PTX in device code is normal, it is nvcc -cuda: the host's
// translation unit, device functions' bodies removed, `__CUDA_ARCH__` branches resolved, macros
// expanded.
#pragma once
#include <filesystem>
#include <vector>

#include "audit/finding.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::audit {

// `source`: emulator: the rewritten .cu (its first #line names the original); cuda: the .cu.
// `build_folder`: where the emulator's build wrote the object (its headers/ holds the rewritten
// copies of the program's headers, where it made them). `run_compiler` runs the preprocessing
// (the sandbox, as for the submission's compile); unset, the compiler runs directly.
// `reserved`: patterns of names the program's own files may not use as identifiers (besides the
// compiler's start-up names): the functions allowed_calls.json trusts by name (only_from).
// `cuda_arch`: cuda, the architecture nvcc compiles device code for (inline PTX of sm_80 and later
// does not compile for nvcc's default).
std::vector<Finding> scan_source(const std::filesystem::path& source, toolchain::Backend backend,
                                 const std::filesystem::path& build_folder,
                                 const toolchain::CompileRunner& run_compiler,
                                 const std::vector<std::string>& reserved = {}, const std::string& cuda_arch = "sm_90");

// The asm statements of a text with a non-empty template (asm labels on declarations, `int f()
// asm("name")`, are not statements and are left out), by 1-based line, and the template's text.
struct AsmStatement {
  int line = 0;
  std::string text;  // the template as written, or the first tokens when it is not a literal
};
std::vector<AsmStatement> asm_statements(std::string_view text);

}  // namespace gpulab::audit
