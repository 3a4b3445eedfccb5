// Writes a kernel's region form (region_plan.hpp) as an edit inserted right after the '{' of its
// body, in front of the body as written, which stays for the blocks that run one fiber per thread:
//
//   __global__ void k(float* x) {
//     if (::gpulab::emu::RegionBlock gpulab_rb; gpulab_rb.begin()) {   // this block runs as regions
//       <block-level statements and, for each region, one loop over the block's threads>
//       return; }
//   #line <the body's line>
//     <the body as written>
//   }
//
// Every copied statement is preceded by a #line directive naming its line in the student's file,
// so the compiler's messages and __LINE__ point there. In a region, threadIdx is the loop's
// thread (gpulab_tid), a return ends only that thread, and the runtime's record of the running
// thread is kept up to date (its rank always, its indices when the region calls code that may read
// them) for reports, printf and the functions it calls.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rewriter/region_analysis.hpp"
#include "rewriter/source_edit.hpp"

namespace gpulab::rewriter {

struct RegionEmitContext {
  std::string file_literal;                              // the file name, escaped for a string literal
  std::function<int(std::size_t)> line_of;               // a token's line in the student's file
  const std::vector<SourceEdit>* other_edits = nullptr;  // the file's other edits: never split inside one
};

// The region form of `kernel` (decision.kind == regions), inserted after its body's '{'.
SourceEdit region_form_edit(const CodeTokens& t, const KernelSource& kernel, const RegionDecision& decision,
                            const RegionEmitContext& context);

}  // namespace gpulab::rewriter
