// Entry point of the rewriter: lexes the source once, collects the launch, __shared__, inline-asm
// and kernel-registration edits and applies them behind a `#line 1` directive that keeps the student's file name and line numbers.
#include "rewriter/cuda_rewriter.hpp"

#include "rewriter/code_tokens.hpp"
#include "rewriter/inline_asm_rewrite.hpp"
#include "rewriter/kernel_registration_rewrite.hpp"
#include "rewriter/launch_rewrite.hpp"
#include "rewriter/scope_tracker.hpp"
#include "rewriter/shared_rewrite.hpp"
#include "rewriter/source_edit.hpp"

#include <vector>

namespace gpulab::rewriter {

RewriteError::RewriteError(std::string_view file, int line_, int column_, const std::string& description_)
    : std::runtime_error(std::string(file) + ":" + std::to_string(line_) + ":" + std::to_string(column_) +
                         ": error: " + description_),
      file_name(file),
      line(line_),
      column(column_),
      description(description_) {}

std::string rewrite_cuda_source(std::string_view source, std::string_view file_name) {
  // A UTF-8 byte order mark is only allowed at the very start of a file, which is now the #line.
  if (source.substr(0, 3) == "\xEF\xBB\xBF") source.remove_prefix(3);

  const CodeTokens tokens(source, file_name);
  std::vector<SourceEdit> edits;
  collect_kernel_launches(tokens, edits);
  const std::vector<TokenScope> scope = scope_map(tokens);
  const std::vector<bool> in_function = function_scope_map(scope);
  collect_shared_declarations(tokens, in_function, edits);
  collect_inline_asm(tokens, in_function, edits);
  collect_kernel_registrations(tokens, scope, edits);

  std::string out = "#line 1 \"" + escape_string_literal(file_name) + "\"\n";
  out += apply_edits(source, std::move(edits));
  return out;
}

}  // namespace gpulab::rewriter
