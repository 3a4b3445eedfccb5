// The audit's checks, one file each, as audit_object (audit.cpp) runs them. Each adds findings;
// a finding about a place in the object's code carries that place, and audit.cpp turns places
// into source lines (source_lines.hpp) in one pass at the end.
#pragma once
#include <filesystem>
#include <optional>
#include <vector>

#include "audit/allowed_calls.hpp"
#include "audit/elf_object.hpp"
#include "audit/finding.hpp"
#include "audit/library_algorithms.hpp"
#include "audit/protected_symbols.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::audit {

struct CodePlace {
  uint32_t section = 0;
  uint64_t offset = 0;
};

struct PlacedFinding {
  Finding finding;
  std::optional<CodePlace> place;  // where in the object; `where` is filled from it
};

struct ObjectUnderAudit {
  const ElfObject& elf;
  std::filesystem::path path;
  toolchain::Backend backend;
  const ProtectedSymbols& protected_symbols;
  const AllowedCalls& calls;
  const LibraryRules& library;  // the lab's library algorithms (none: not checked)
  const std::string& listing;   // the object's code, disassembled (disassemble below)
};

// symbol_checks.cpp: definitions that replace a protected library's (interposition), and
// references to what the allowlist denies or does not name, or to the harness.
void check_definitions(const ObjectUnderAudit& object, std::vector<PlacedFinding>& out);
void check_references(const ObjectUnderAudit& object, std::vector<PlacedFinding>& out);
// startup_checks.cpp: constructors and destructors other than the compiler's own, start-up
// sections, IFUNC symbols, an executable stack, writable code.
void check_startup(const ObjectUnderAudit& object, std::vector<PlacedFinding>& out);
// library_check.cpp: the lab's library algorithms, one finding per algorithm the object holds.
// check_references leaves a reference to one of them to this check.
void check_library_algorithms(const ObjectUnderAudit& object, std::vector<PlacedFinding>& out);
// instruction_check.cpp: the object's executable sections disassembled by binutils' objdump (AT&T
// syntax, one instruction a line); throws files::GraderError when objdump cannot run.
std::string disassemble(const std::filesystem::path& object);
// instruction_check.cpp: system-call, interrupt, far-transfer and protection-key instructions
// in the object's code (binutils' objdump).
void check_instructions(const ObjectUnderAudit& object, std::vector<PlacedFinding>& out);

// The name a sentence shows for a symbol: its key, or the demangled name when the key is empty.
std::string shown_name(const std::string& mangled);

}  // namespace gpulab::audit
