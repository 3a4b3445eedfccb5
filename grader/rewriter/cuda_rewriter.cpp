// Entry point of the rewriter: writes `__CUDA_ARCH__` as nvcc's two passes read it (arch_views),
// then lexes that text once, collects the launch, __noinline__, __shared__, inline-asm,
// kernel-registration and kernel-address edits and applies them behind a `#line 1` directive that keeps the student's file
// name and line numbers.
#include "rewriter/cuda_rewriter.hpp"

#include "rewriter/arch_macros.hpp"
#include "rewriter/arch_views.hpp"
#include "rewriter/code_tokens.hpp"
#include "rewriter/inline_asm_rewrite.hpp"
#include "rewriter/kernel_address_rewrite.hpp"
#include "rewriter/kernel_registration_rewrite.hpp"
#include "rewriter/launch_rewrite.hpp"
#include "rewriter/noinline_rewrite.hpp"
#include "rewriter/program_symbols.hpp"
#include "rewriter/region_rewrite.hpp"
#include "rewriter/scope_tracker.hpp"
#include "rewriter/shared_rewrite.hpp"
#include "rewriter/source_edit.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace gpulab::rewriter {

RewriteError::RewriteError(std::string_view file, int line_, int column_, const std::string& description_)
    : std::runtime_error(std::string(file) + ":" + std::to_string(line_) + ":" + std::to_string(column_) +
                         ": error: " + description_),
      file_name(file),
      line(line_),
      column(column_),
      description(description_) {}

namespace {

// The launch, __noinline__, __shared__, inline-asm, registration, kernel-address and region edits of
// one text.
// `line_map`: the student's line of each line of `source`.
std::string rewrite_constructs(std::string_view source, std::string_view file_name, const RewriteOptions& options,
                               const std::vector<int>& line_map) {
  const CodeTokens tokens(source, file_name);
  std::vector<SourceEdit> edits;
  collect_kernel_launches(tokens, edits);
  collect_noinline_qualifiers(tokens, edits);
  const std::vector<TokenScope> scope = scope_map(tokens);
  const std::vector<bool> in_function = function_scope_map(scope);
  collect_shared_declarations(tokens, in_function, edits);
  collect_inline_asm(tokens, in_function, edits);
  collect_kernel_registrations(tokens, scope, edits);
  std::set<std::string> kernels = options.kernel_names;
  kernels.merge(kernel_names_of(tokens));
  collect_kernel_addresses(tokens, kernels, edits);
  RegionPassOptions regions;
  regions.region_forms = options.region_forms;
  regions.program = options.program_names.get();
  regions.file_literal = escape_string_literal(file_name);
  regions.line_of = [&](std::size_t token) {
    const int line = tokens[token].line;
    return line >= 1 && static_cast<std::size_t>(line) <= line_map.size() ? line_map[static_cast<std::size_t>(line) - 1]
                                                                          : line;
  };
  collect_region_forms(tokens, scope, regions, edits);
  return apply_edits(source, std::move(edits));
}

}  // namespace

std::string rewrite_cuda_source(std::string_view source, std::string_view file_name, const RewriteOptions& options) {
  // A UTF-8 byte order mark is only allowed at the very start of a file, which is now the #line.
  if (source.substr(0, 3) == "\xEF\xBB\xBF") source.remove_prefix(3);

  // First `__CUDA_ARCH__` as each of nvcc's passes reads it, then the constructs C++ lacks.
  const std::set<std::string> macros = arch_dependent_macros(source, options.arch_macros, options.cuda_arch);
  const ArchRewrite views = rewrite_arch_views(source, file_name, ArchContext{options.cuda_arch, &macros});
  std::string out = "#line 1 \"" + escape_string_literal(file_name) + "\"\n";
  try {
    out += rewrite_constructs(views.text, file_name, options, views.line_map);
  } catch (const RewriteError& e) {
    // A line of the rewritten text that repeats the source: its message names the source's line.
    if (e.line < 1 || static_cast<std::size_t>(e.line) > views.line_map.size()) throw;
    throw RewriteError(e.file_name, views.line_map[static_cast<std::size_t>(e.line) - 1], e.column, e.description);
  }
  return out;
}

std::set<std::string> program_arch_macros(const std::vector<std::string_view>& texts, int cuda_arch) {
  std::set<std::string> macros;
  for (;;) {  // until no file adds one: a header's macro may make another file's depend
    const std::size_t before = macros.size();
    for (const std::string_view text : texts) macros = arch_dependent_macros(text, macros, cuda_arch);
    if (macros.size() == before) return macros;
  }
}

std::set<std::string> program_kernel_names(const std::vector<std::string_view>& texts) {
  std::set<std::string> names;
  for (const std::string_view text : texts) {
    if (text.find("__global__") == std::string_view::npos) continue;
    names.merge(kernel_names_of(CodeTokens(text, "")));
  }
  return names;
}

std::shared_ptr<const ProgramNames> program_region_names(const std::vector<std::string_view>& texts) {
  return std::make_shared<const ProgramNames>(program_names(texts));
}

int cuda_arch_value(std::string_view arch) {
  const std::string_view original = arch;
  for (std::string_view prefix : {"sm_", "compute_", "lto_"}) {
    if (arch.substr(0, prefix.size()) == prefix) arch.remove_prefix(prefix.size());
  }
  if (!arch.empty() && (arch.back() == 'a' || arch.back() == 'f')) arch.remove_suffix(1);
  if (arch.size() < 2 || arch.size() > 3 ||
      !std::all_of(arch.begin(), arch.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw std::invalid_argument("'" + std::string(original) +
                                "' is not a CUDA architecture: write it as nvcc does, e.g. sm_90 (H100) or sm_80");
  }
  return std::stoi(std::string(arch)) * 10;
}

}  // namespace gpulab::rewriter
