// Names of the kinds of findings (see finding.hpp).
#include "audit/finding.hpp"

#include <array>
#include <utility>

namespace gpulab::audit {

namespace {
constexpr std::array<std::pair<FindingKind, const char*>, 10> kNames = {{
    {FindingKind::interposition, "interposition"},
    {FindingKind::forbidden_call, "forbidden_call"},
    {FindingKind::harness_reference, "harness_reference"},
    {FindingKind::raw_system_call, "raw_system_call"},
    {FindingKind::inline_assembly, "inline_assembly"},
    {FindingKind::early_constructor, "early_constructor"},
    {FindingKind::executable_stack, "executable_stack"},
    {FindingKind::library_algorithm, "library_algorithm"},
    {FindingKind::host_visible_memory, "host_visible_memory"},
    {FindingKind::other, "other"},
}};
}  // namespace

const char* kind_name(FindingKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "other";
}

std::optional<FindingKind> parse_kind(const std::string& name) {
  for (const auto& [k, n] : kNames) {
    if (name == n) return k;
  }
  return std::nullopt;
}

}  // namespace gpulab::audit
