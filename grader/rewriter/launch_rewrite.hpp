// Finds CUDA kernel launches `KERNEL<<<G, B[, SMEM[, STREAM]]>>>(ARGS)` and produces the edits that turn
// each into `::gpulab::emu::launcher("KERNEL", __LINE__, G, B...).run([=](auto... gpulab_a) {
// KERNEL(gpulab_a...); }, ARGS)`, keeping the line breaks of the original launch.
#pragma once

#include "rewriter/code_tokens.hpp"
#include "rewriter/source_edit.hpp"

#include <vector>

namespace gpulab::rewriter {

// Appends one edit per launch; throws RewriteError for a malformed launch.
void collect_kernel_launches(const CodeTokens& tokens, std::vector<SourceEdit>& edits);

}  // namespace gpulab::rewriter
