// Helpers of the audit's tests: a .cu compiled to its object for a backend (through the build
// cache, as the grader compiles a submission) and audited, with a lab's library algorithms where
// given; several at once, two compiles at a time; findings printed for a failure's message.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "audit/audit.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab_test {

struct Audited {
  std::filesystem::path file;
  gpulab::toolchain::Backend backend;
  bool compiled = false;
  std::string compiler_output;
  gpulab::audit::AuditResult result;
  std::filesystem::path object;  // what was audited
};

std::filesystem::path source_dir();  // the project's source tree
// The backends to test on: emu, and cuda where nvcc is present.
std::vector<gpulab::toolchain::Backend> audit_backends();
// A lab's library algorithms, read from assignments/<lab>/lab.json as the grader reads them; with
// no lab, those of every lab (the strictest rules, for files that belong to no lab).
gpulab::audit::LibraryRules lab_library_rules(const std::string& lab = "");
Audited audit_file(const std::filesystem::path& cu, gpulab::toolchain::Backend backend,
                   const gpulab::audit::LibraryRules& rules = {});
// Each file with the rules of its own index (or all with rules[0] when there is one).
std::vector<Audited> audit_files(const std::vector<std::filesystem::path>& files, gpulab::toolchain::Backend backend,
                                 const std::vector<gpulab::audit::LibraryRules>& rules = {});

// Whether a finding has this kind and its symbol and sentence contain these texts.
bool has_finding(const gpulab::audit::AuditResult& r, gpulab::audit::FindingKind kind, const std::string& symbol,
                 const std::string& sentence = "");
std::string describe(const Audited& a);
// For a failure's log: the object's symbols whose names contain `text` (binding, section, COMDAT),
// and what the protected libraries' table holds for each.
std::string symbols_named(const Audited& a, const std::string& text);

}  // namespace gpulab_test
