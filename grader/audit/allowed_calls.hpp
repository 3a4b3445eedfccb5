// The reviewed list of what a graded function may refer to (grader/audit/allowed_calls.json):
// allow entries, deny entries with the sentence a student reads, and the patterns that name the
// grader's harness. A name is matched by its key (symbol_names.hpp) against `*` patterns.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "audit/finding.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::audit {

struct DenyEntry {
  std::vector<std::string> names;  // patterns
  FindingKind kind;
  std::string does;  // "changes memory protection": "calls mprotect, which <does>; ..."
  std::vector<toolchain::Backend> backends;
};

struct AllowEntry {
  std::vector<std::string> names;      // patterns
  std::vector<std::string> libraries;  // every symbol these protected libraries define ("libm")
  std::vector<toolchain::Backend> backends;
  // When set, the names are allowed only where every reference to them is inside an inline
  // (COMDAT) function whose key matches one of these: a library header's own code (NVTX's
  // initialisation, which CUB includes, loads a profiler's library with dlopen). Checked before
  // deny; the program's own files may not name such a function (source_scan.hpp).
  std::vector<std::string> only_from;
};

struct AllowedCalls {
  std::vector<std::string> harness;  // patterns of the harness's own names
  // Patterns of names (as written in the object, mangled) that the C runtime's start-up code or a
  // library calls when a program defines them (crti's __gmon_start__, the _ITM_* hooks): a
  // definition of one is code that runs outside the graded function.
  std::vector<std::string> hooks;
  std::vector<AllowEntry> allow;
  std::vector<DenyEntry> deny;

  bool is_harness(const std::string& key) const;
  // The allow entry with only_from of `backend` that names `key`, or nullptr.
  const AllowEntry* allowed_only_from(const std::string& key, toolchain::Backend backend) const;
  // Every only_from pattern's last name (after its last "::"), for the source's identifiers.
  std::vector<std::string> only_from_names() const;
  // The first deny entry of `backend` that names `key`, or nullptr.
  const DenyEntry* denied(const std::string& key, toolchain::Backend backend) const;
  // Whether an allow entry of `backend` names `key`, or names a library that defines `name`
  // (`defined_in(library_id)` answers for the protected libraries).
  template <typename DefinedIn>
  bool allowed(const std::string& key, toolchain::Backend backend, DefinedIn defined_in) const;
};

// The file shipped with gpulab: project_root()/grader/audit/allowed_calls.json.
std::filesystem::path allowed_calls_file();
// Read once per file and kept. Throws files::GraderError naming the file and the entry when it
// is missing or malformed (a kind or backend it does not know, an empty sentence).
const AllowedCalls& allowed_calls(const std::filesystem::path& file = allowed_calls_file());

bool applies_to(const std::vector<toolchain::Backend>& backends, toolchain::Backend backend);
bool matches_any(const std::vector<std::string>& patterns, const std::string& key);

template <typename DefinedIn>
bool AllowedCalls::allowed(const std::string& key, toolchain::Backend backend, DefinedIn defined_in) const {
  for (const AllowEntry& e : allow) {
    if (!applies_to(e.backends, backend) || !e.only_from.empty()) continue;
    if (matches_any(e.names, key)) return true;
    for (const std::string& library : e.libraries) {
      if (defined_in(library)) return true;
    }
  }
  return false;
}

}  // namespace gpulab::audit
