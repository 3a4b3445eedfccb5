// A relocatable ELF object (`.o`) as the audit reads it: its sections, its symbol table and its
// relocations. Read by hand with the system's <elf.h> definitions: the audit needs only these
// three tables of a 64-bit little-endian object (x86-64, aarch64), every offset is checked
// against the file, and no process is started for it.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpulab::audit {

struct ElfSection {
  std::string name;
  uint32_t type = 0;   // SHT_*
  uint64_t flags = 0;  // SHF_*
  uint64_t size = 0;
  uint64_t entry_size = 0;
  bool in_comdat = false;  // a member of a COMDAT group (one copy kept by the linker)
};

struct ElfSymbol {
  std::string name;        // as written in the object (mangled)
  uint8_t type = 0;        // STT_*
  uint8_t bind = 0;        // STB_*
  bool undefined = false;  // a reference to a symbol defined elsewhere
  bool common = false;     // a tentative definition (STT_COMMON / SHN_COMMON), placed by the linker
  uint32_t section = 0;    // the index of its section (extended indexes resolved); 0 when it has none
  uint64_t value = 0;      // offset in its section
  uint64_t size = 0;
  bool defined() const { return !undefined && !common; }
};

struct ElfRelocation {
  uint32_t applies_to = 0;  // the section whose bytes it patches
  uint64_t offset = 0;      // in that section
  uint32_t symbol = 0;      // index in symbols
  uint32_t type = 0;        // R_X86_64_* / R_AARCH64_*
  int64_t addend = 0;
};

struct ElfObject {
  uint16_t machine = 0;  // EM_X86_64 or EM_AARCH64
  std::vector<ElfSection> sections;
  std::vector<ElfSymbol> symbols;
  std::vector<ElfRelocation> relocations;
  std::vector<std::vector<size_t>> relocations_of;  // by symbol index: the relocations against it

  // The section's name, "" for an index out of range or a special index (SHN_ABS, ...).
  const std::string& section_name(uint32_t index) const;
  // The function (STT_FUNC) of the object that holds `offset` of section `section`, or nullptr.
  const ElfSymbol* function_at(uint32_t section, uint64_t offset) const;
  // Whether the relocation's type is a call or a jump to its symbol (a PLT or branch relocation).
  bool is_call(const ElfRelocation& r) const;
};

// Throws files::GraderError when the file cannot be read or is not a 64-bit little-endian
// relocatable object for x86-64 or aarch64 (what gpulab's toolchain writes).
ElfObject read_elf_object(const std::filesystem::path& object);

}  // namespace gpulab::audit
