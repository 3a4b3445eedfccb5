// The region transformation's pass over a file: for each kernel defined at namespace scope (template
// or not), decides how its blocks run (region_analysis.hpp) and, where they can run as regions
// between barriers, inserts the region form in front of its body (region_emit.hpp). After every
// kernel it registers what was decided, which `gpulab run --verbose` prints:
//   static const ::gpulab::emu::region_note gpulab_region_note_L12C1("k", "k.cu", 12, 1, "...");
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rewriter/code_tokens.hpp"
#include "rewriter/scope_tracker.hpp"
#include "rewriter/source_edit.hpp"

namespace gpulab::rewriter {

struct ProgramNames;

struct RegionPassOptions {
  bool region_forms = true;                 // false: neither region forms nor notes (the checking build)
  const ProgramNames* program = nullptr;    // what the program's other files declare, if known
  std::string file_literal;                 // the file's name, escaped for a string literal
  std::function<int(std::size_t)> line_of;  // a token's line in the student's file
};

// `edits`: the file's other edits so far (the region form copies the kernel's statements with them
// applied, and never splits one); the pass appends its own.
void collect_region_forms(const CodeTokens& tokens, const std::vector<TokenScope>& scope,
                          const RegionPassOptions& options, std::vector<SourceEdit>& edits);

// What the pass decides for each kernel of `source`, one line each: "name: regions|fibers|plain
// calls: reason" (for tests and `gpulab rewrite --regions`).
std::vector<std::string> region_decisions(std::string_view source);

}  // namespace gpulab::rewriter
