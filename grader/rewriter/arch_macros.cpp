// Finding the macros that depend on `__CUDA_ARCH__` (see arch_macros.hpp): repeated until no
// more are found, since a group on a macro found late makes the macros it defines depend too.
#include "rewriter/arch_macros.hpp"

#include "rewriter/arch_resolve.hpp"
#include "rewriter/pp_conditionals.hpp"

#include <vector>

namespace gpulab::rewriter {
namespace {

// One round: the macros defined or undefined under a group the two passes read differently, or
// whose replacement names `__CUDA_ARCH__` or a macro of `ctx`.
void add_dependent_macros(std::string_view source, const ArchContext& ctx, std::set<std::string>& out) {
  const std::string resolved = resolve_agreeing_groups(source, "", ctx);
  const CodeTokens t(resolved, "");
  const std::vector<Directive> directives = directives_of(t);
  const Conditionals c = conditionals_of(directives);
  std::vector<bool> group_is_arch(c.groups.size(), false);
  for (std::size_t g = 0; g < c.groups.size(); ++g) {
    for (const std::size_t d : c.groups[g].branches) {
      if (condition_mentions_arch(t, directives[d], ctx)) group_is_arch[g] = true;
    }
  }
  std::vector<std::size_t> open;  // groups around the current directive
  for (std::size_t d = 0; d < directives.size(); ++d) {
    const Directive& dir = directives[d];
    const std::size_t g = c.group_of[d];
    if (g != npos && directives[c.groups[g].branches.front()].hash == dir.hash) {
      open.push_back(g);
      continue;
    }
    if (g != npos && c.groups[g].endif == d) {
      if (!open.empty()) open.pop_back();
      continue;
    }
    if ((dir.name != "define" && dir.name != "undef") || dir.hash + 2 > dir.last || !t.is_identifier(dir.hash + 2))
      continue;
    const std::string name(t.text(dir.hash + 2));
    bool depends = false;
    for (const std::size_t o : open) depends = depends || group_is_arch[o];
    for (std::size_t i = dir.hash + 3; i <= dir.last && !depends; ++i) {
      depends = t.is_identifier(i) && (t.text(i) == "__CUDA_ARCH__" || ctx.is_arch_macro(t.text(i)));
    }
    if (depends) out.insert(name);
  }
}

}  // namespace

std::string device_macro_name(std::string_view name) { return "gpulab_device_" + std::string(name); }

std::set<std::string> arch_dependent_macros(std::string_view source, const std::set<std::string>& known, int arch) {
  std::set<std::string> macros = known;
  if (source.find("__CUDA_ARCH__") == std::string_view::npos && known.empty()) return macros;
  for (;;) {
    std::set<std::string> next = macros;
    add_dependent_macros(source, ArchContext{arch, &macros}, next);
    if (next == macros) return macros;
    macros = std::move(next);
  }
}

}  // namespace gpulab::rewriter
