// Public API of the CUDA source rewriter: turns the two CUDA constructs that C++ cannot express
// (kernel launches `k<<<g, b>>>(args)` and `__shared__` variables inside functions) into calls into the
// CPU emulator runtime (::gpulab::emu), keeping every other character and every line number intact.
#pragma once

#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::rewriter {

struct ProgramNames;

// Thrown when the source cannot be rewritten (an unbalanced launch, an initialised __shared__ variable,
// ...). what() reads "<file>:<line>:<column>: error: <description>", like a compiler diagnostic.
struct RewriteError : std::runtime_error {
  RewriteError(std::string_view file_name, int line, int column, const std::string& description);

  std::string file_name;
  int line;                 // 1-based line in the original source
  int column;               // 1-based column (in bytes) in the original source
  std::string description;  // what is wrong and what to do, without the location prefix
};

// What the rewriter knows of the build besides the source: the architecture of nvcc's device pass
// (`__CUDA_ARCH__` in device code, arch_views.hpp) and what the program's other files (its
// other sources, its headers) declare, so that a header's macro or kernel is known in the .cu
// that includes it.
struct RewriteOptions {
  int cuda_arch = 900;  // sm_90
  // Macros whose value depends on `__CUDA_ARCH__` (program_arch_macros).
  std::set<std::string> arch_macros;
  // Kernels (`__global__` functions) declared in the program's files (program_kernel_names).
  std::set<std::string> kernel_names;
  // Give each kernel whose barriers allow it a region form: its blocks run each stretch between
  // barriers as one loop over their threads (region_rewrite.hpp). The checking build, which follows
  // each thread's accesses on fibers, does without.
  bool region_forms = true;
  // What the program's files declare that the region analysis needs (program_names in
  // program_symbols.hpp): functions that synchronise, constants, types, variables.
  std::shared_ptr<const ProgramNames> program_names;
};

// Returns the rewritten source. Its first line is `#line 1 "<file_name>"` (file_name escaped for a C
// string literal); after it, line N of the output holds what line N of the input held, rewritten in
// place, so compiler diagnostics point at the student's line. Where the `__CUDA_ARCH__` rewrite
// writes a piece of code twice (arch_views.hpp), `#line` directives keep every line's number.
// Throws RewriteError.
std::string rewrite_cuda_source(std::string_view source, std::string_view file_name,
                                const RewriteOptions& options = {});

// The macros of the program's files (`texts`, its sources and headers) whose value depends on
// `__CUDA_ARCH__`, and the kernels they declare: RewriteOptions' arch_macros and kernel_names.
std::set<std::string> program_arch_macros(const std::vector<std::string_view>& texts, int cuda_arch = 900);
std::set<std::string> program_kernel_names(const std::vector<std::string_view>& texts);
// Their functions that synchronise, constants, types and variables: RewriteOptions' program_names.
std::shared_ptr<const ProgramNames> program_region_names(const std::vector<std::string_view>& texts);

// `__CUDA_ARCH__`'s value for an architecture name as nvcc takes it ("sm_90", "sm_90a",
// "compute_80", "90"): 900, 900, 800, 900. Throws std::invalid_argument for anything else.
int cuda_arch_value(std::string_view arch);

}  // namespace gpulab::rewriter
