// Public API of the CUDA source rewriter: turns the two CUDA constructs that C++ cannot express
// (kernel launches `k<<<g, b>>>(args)` and `__shared__` variables inside functions) into calls into the
// CPU emulator runtime (::gpulab::emu), keeping every other character and every line number intact.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace gpulab::rewriter {

// Thrown when the source cannot be rewritten (an unbalanced launch, an initialised __shared__ variable,
// ...). what() reads "<file>:<line>:<column>: error: <description>", like a compiler diagnostic.
struct RewriteError : std::runtime_error {
  RewriteError(std::string_view file_name, int line, int column, const std::string& description);

  std::string file_name;
  int line;                 // 1-based line in the original source
  int column;               // 1-based column (in bytes) in the original source
  std::string description;  // what is wrong and what to do, without the location prefix
};

// Returns the rewritten source. Its first line is `#line 1 "<file_name>"` (file_name escaped for a C
// string literal); after it, line N of the output holds what line N of the input held, rewritten in
// place, so compiler diagnostics point at the student's line. Throws RewriteError.
std::string rewrite_cuda_source(std::string_view source, std::string_view file_name);

}  // namespace gpulab::rewriter
