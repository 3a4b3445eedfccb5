// audit_object: the checks of checks.hpp and source_scan.hpp in one pass, places turned into
// source lines at the end (see audit.hpp).
#include "audit/audit.hpp"

#include <chrono>
#include <map>
#include <set>
#include <tuple>

#include "audit/checks.hpp"
#include "audit/source_lines.hpp"
#include "audit/source_scan.hpp"
#include "audit/symbol_names.hpp"

namespace gpulab::audit {
namespace fs = std::filesystem;

namespace {
// Fills each finding's `where`: the source line of its place where the debug info has one, else
// the function that holds it, else its section.
void locate(const ElfObject& elf, const fs::path& object, std::vector<PlacedFinding>& placed) {
  std::map<uint32_t, std::vector<size_t>> by_section;
  for (size_t i = 0; i < placed.size(); ++i) {
    if (placed[i].place && placed[i].finding.where.empty()) by_section[placed[i].place->section].push_back(i);
  }
  for (const auto& [section, indexes] : by_section) {
    std::vector<uint64_t> offsets;
    for (const size_t i : indexes) offsets.push_back(placed[i].place->offset);
    const std::vector<std::string> lines = object_source_lines(object, elf.section_name(section), offsets);
    for (size_t k = 0; k < indexes.size(); ++k) {
      Finding& f = placed[indexes[k]].finding;
      if (!lines[k].empty()) {
        f.where = lines[k];
      } else if (const ElfSymbol* function = elf.function_at(section, offsets[k])) {
        // The student's function, not the compiler's copy of it ("f() [clone .part.0]").
        std::string name = demangled(function->name);
        if (const size_t clone = name.find(" [clone "); clone != std::string::npos) name.erase(clone);
        f.where = "in function " + name;
      } else {
        f.where = "section " + elf.section_name(section);
      }
    }
  }
}
// The C++ library's class a reference belongs to: `std::basic_ofstream` for its constructor,
// destructor and vtable alike; any other name is its own.
std::string owner(const std::string& symbol) {
  const std::string key = symbol_key(symbol);
  if (key.rfind("std::", 0) != 0) return key;
  return key.substr(0, key.find("::", 5));
}

// One finding per class and line: `std::ofstream log(...)` refers to its constructor, destructor,
// vtable and filebuf, one line for the student says it.
std::vector<Finding> without_repeats(std::vector<PlacedFinding>& placed) {
  std::vector<Finding> kept;
  std::set<std::tuple<FindingKind, std::string, std::string>> seen;
  for (PlacedFinding& p : placed) {
    const Finding& f = p.finding;
    const bool reference = f.kind == FindingKind::forbidden_call || f.kind == FindingKind::harness_reference;
    if (reference && !f.where.empty() && !seen.insert({f.kind, f.where, owner(f.symbol)}).second) continue;
    kept.push_back(std::move(p.finding));
  }
  return kept;
}
}  // namespace

AuditResult audit_object(const fs::path& object, toolchain::Backend backend, const fs::path& source,
                         const toolchain::CompileRunner& run_compiler, const std::string& cuda_arch,
                         const LibraryRules& library) {
  const auto start = std::chrono::steady_clock::now();
  const ElfObject elf = read_elf_object(object);
  const std::shared_ptr<const ProtectedSymbols> symbols = protected_symbols(backend);
  const AllowedCalls& calls = allowed_calls();
  const std::string listing = disassemble(object);
  const ObjectUnderAudit o{elf, object, backend, *symbols, calls, library, listing};
  std::vector<PlacedFinding> placed;
  check_definitions(o, placed);
  check_references(o, placed);
  check_startup(o, placed);
  check_instructions(o, placed);
  check_library_algorithms(o, placed);
  locate(elf, object, placed);
  AuditResult result;
  result.findings = without_repeats(placed);
  if (!source.empty()) {
    for (Finding& f :
         scan_source(source, backend, object.parent_path(), run_compiler, calls.only_from_names(), cuda_arch)) {
      result.findings.push_back(std::move(f));
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace gpulab::audit
