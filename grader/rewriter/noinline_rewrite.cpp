// Writes each `__noinline__` qualifier as `__attribute__((noinline))` (noinline_rewrite.hpp).
#include "rewriter/noinline_rewrite.hpp"

namespace gpulab::rewriter {

void collect_noinline_qualifiers(const CodeTokens& tokens, std::vector<SourceEdit>& edits) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    // An attribute list, `__attribute__((...))` or `__attribute((...))`: its names stay as written.
    if ((tokens.is_identifier(i, "__attribute__") || tokens.is_identifier(i, "__attribute")) && i + 1 < tokens.size() &&
        tokens.is_punct(i + 1, '(')) {
      if (const auto close = tokens.match_forward(i + 1)) i = *close;
      continue;
    }
    if (!tokens.is_identifier(i, "__noinline__")) continue;
    SourceEdit e;
    e.begin = tokens[i].begin;
    e.end = tokens[i].end;
    e.parts.push_back(EditPart::literal("__attribute__((noinline))"));
    edits.push_back(std::move(e));
  }
}

}  // namespace gpulab::rewriter
