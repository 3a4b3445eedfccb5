// Resolving the `__CUDA_ARCH__` groups both passes read alike (see arch_resolve.hpp).
#include "rewriter/arch_resolve.hpp"

#include <algorithm>

namespace gpulab::rewriter {

void blank_out(std::string& text, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end && i < text.size(); ++i) {
    if (text[i] != '\n' && text[i] != '\r') text[i] = ' ';
  }
}

std::string resolve_agreeing_groups(std::string_view source, std::string_view file_name, const ArchContext& ctx) {
  std::string out(source);
  if (source.find("__CUDA_ARCH__") == std::string_view::npos && (!ctx.macros || ctx.macros->empty())) return out;
  const CodeTokens t(source, file_name);
  const std::vector<Directive> directives = directives_of(t);
  const Conditionals c = conditionals_of(directives);
  for (const ConditionalGroup& g : c.groups) {
    if (g.endif == npos) continue;
    const bool arch = std::any_of(g.branches.begin(), g.branches.end(),
                                  [&](std::size_t d) { return condition_mentions_arch(t, directives[d], ctx); });
    if (!arch) continue;
    const std::vector<std::size_t> device = possible_branches(t, directives, g, Side::device, ctx);
    const std::vector<std::size_t> host = possible_branches(t, directives, g, Side::host, ctx);
    if (device.size() != 1 || device != host) continue;
    const std::size_t taken = device.front();
    for (std::size_t b = 0; b < g.branches.size(); ++b) {
      const Directive& d = directives[g.branches[b]];
      const Directive& next = directives[b + 1 < g.branches.size() ? g.branches[b + 1] : g.endif];
      blank_out(out, t[d.hash].begin, t[d.last].end);
      if (b != taken) blank_out(out, t[d.last].end, t[next.hash].begin);
    }
    blank_out(out, t[directives[g.endif].hash].begin, t[directives[g.endif].last].end);
  }
  return out;
}

}  // namespace gpulab::rewriter
