// Reading a relocatable ELF object's sections, symbols and relocations (see elf_object.hpp).
// Written by hand against <elf.h>: the three tables are all the audit reads, and every offset
// and count taken from the file is checked against its size before it is used.
#include "audit/elf_object.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "files/grader_error.hpp"

namespace gpulab::audit {
namespace fs = std::filesystem;

namespace {
class Reader {
 public:
  Reader(std::string bytes, fs::path path) : bytes_(std::move(bytes)), path_(std::move(path)) {}

  // A copy of the T at `offset`; a damaged object when it does not fit.
  template <typename T> T at(uint64_t offset) const {
    if (offset > bytes_.size() || bytes_.size() - offset < sizeof(T)) damaged("a table runs past the end of the file");
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    return value;
  }
  // The NUL-terminated string at `offset` of the string table [table, table + size).
  std::string string_at(uint64_t table, uint64_t size, uint64_t offset) const {
    if (offset >= size || table > bytes_.size() || bytes_.size() - table < size) return {};
    const char* begin = bytes_.data() + table + offset;
    return std::string(begin, strnlen(begin, size - offset));
  }
  [[noreturn]] void damaged(const std::string& what) const {
    throw files::GraderError("the audit cannot read the object " + path_.string() + ": " + what +
                             "; it was written by gpulab's own compile, so this is a problem of the installation "
                             "(compiler or binutils), not of the submission");
  }
  uint64_t size() const { return bytes_.size(); }

 private:
  std::string bytes_;
  fs::path path_;
};

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw files::GraderError("the audit cannot open the object " + path.string() + ": check that it exists");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void check_header(const Reader& r, const Elf64_Ehdr& h) {
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) r.damaged("it is not an ELF file");
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB) {
    r.damaged("it is not a 64-bit little-endian ELF object");
  }
  if (h.e_type != ET_REL) r.damaged("it is not a relocatable object (compiled with -c)");
  if (h.e_machine != EM_X86_64 && h.e_machine != EM_AARCH64) {
    r.damaged("its machine (" + std::to_string(h.e_machine) + ") is neither x86-64 nor aarch64");
  }
  if (h.e_shentsize != sizeof(Elf64_Shdr)) r.damaged("its section headers have an unexpected size");
}

struct SymbolTable {
  Elf64_Shdr header{};
  uint32_t index = 0;
  uint64_t extended_indexes = 0;  // file offset of its SHT_SYMTAB_SHNDX section, 0 when none
};
}  // namespace

const std::string& ElfObject::section_name(uint32_t index) const {
  static const std::string none;
  return index < sections.size() ? sections[index].name : none;
}

const ElfSymbol* ElfObject::function_at(uint32_t section, uint64_t offset) const {
  // The function whose extent holds the offset; else, for code written in assembly without a
  // .size, the nearest symbol of the section at or before it.
  const ElfSymbol* nearest = nullptr;
  for (const ElfSymbol& s : symbols) {
    if (!s.defined() || s.section != section || s.value > offset || s.type == STT_SECTION || s.name.empty()) continue;
    if (s.type == STT_FUNC && offset < s.value + s.size) return &s;
    if ((s.type == STT_FUNC || s.type == STT_NOTYPE) && s.size == 0 && s.name[0] != '.' &&
        (!nearest || s.value > nearest->value)) {
      nearest = &s;
    }
  }
  return nearest;
}

bool ElfObject::is_call(const ElfRelocation& r) const {
  if (machine == EM_X86_64) return r.type == R_X86_64_PLT32;
  return r.type == R_AARCH64_CALL26 || r.type == R_AARCH64_JUMP26;
}

ElfObject read_elf_object(const fs::path& object) {
  const Reader r(read_bytes(object), object);
  const auto header = r.at<Elf64_Ehdr>(0);
  check_header(r, header);
  ElfObject elf;
  elf.machine = header.e_machine;

  // Section 0 holds the real count and string-table index when they do not fit the header.
  const auto first = r.at<Elf64_Shdr>(header.e_shoff);
  const uint64_t count = header.e_shnum ? header.e_shnum : first.sh_size;
  const uint32_t names_index = header.e_shstrndx == SHN_XINDEX ? first.sh_link : header.e_shstrndx;
  if (count > r.size() / sizeof(Elf64_Shdr)) r.damaged("it claims more sections than the file can hold");
  std::vector<Elf64_Shdr> headers;
  for (uint64_t i = 0; i < count; ++i) headers.push_back(r.at<Elf64_Shdr>(header.e_shoff + i * sizeof(Elf64_Shdr)));
  if (names_index >= headers.size()) r.damaged("its section-name table is missing");
  const Elf64_Shdr& names = headers[names_index];

  SymbolTable symtab;
  for (uint32_t i = 0; i < headers.size(); ++i) {
    const Elf64_Shdr& h = headers[i];
    elf.sections.push_back({r.string_at(names.sh_offset, names.sh_size, h.sh_name), h.sh_type, h.sh_flags, h.sh_size,
                            h.sh_entsize, false});
    if (h.sh_type == SHT_SYMTAB) symtab = {h, i, 0};
  }
  for (const Elf64_Shdr& h : headers) {
    if (h.sh_type == SHT_SYMTAB_SHNDX && h.sh_link == symtab.index) symtab.extended_indexes = h.sh_offset;
    if (h.sh_type != SHT_GROUP || h.sh_size < 4) continue;
    if (!(r.at<uint32_t>(h.sh_offset) & GRP_COMDAT)) continue;
    for (uint64_t k = 4; k + 4 <= h.sh_size; k += 4) {
      const uint32_t member = r.at<uint32_t>(h.sh_offset + k);
      if (member < elf.sections.size()) elf.sections[member].in_comdat = true;
    }
  }
  if (!symtab.index) return elf;  // no symbol table: nothing defined, nothing referenced

  if (symtab.header.sh_link >= headers.size()) r.damaged("its symbol table has no string table");
  const Elf64_Shdr& strings = headers[symtab.header.sh_link];
  const uint64_t symbols = symtab.header.sh_size / sizeof(Elf64_Sym);
  if (symbols > r.size() / sizeof(Elf64_Sym)) r.damaged("it claims more symbols than the file can hold");
  for (uint64_t i = 0; i < symbols; ++i) {
    const auto s = r.at<Elf64_Sym>(symtab.header.sh_offset + i * sizeof(Elf64_Sym));
    ElfSymbol symbol;
    symbol.name = r.string_at(strings.sh_offset, strings.sh_size, s.st_name);
    symbol.type = ELF64_ST_TYPE(s.st_info);
    symbol.bind = ELF64_ST_BIND(s.st_info);
    symbol.value = s.st_value;
    symbol.size = s.st_size;
    symbol.undefined = s.st_shndx == SHN_UNDEF;
    symbol.common = s.st_shndx == SHN_COMMON || symbol.type == STT_COMMON;
    if (s.st_shndx == SHN_XINDEX && symtab.extended_indexes) {
      symbol.section = r.at<uint32_t>(symtab.extended_indexes + i * 4);
    } else if (s.st_shndx < SHN_LORESERVE) {
      symbol.section = s.st_shndx;
    }
    if (symbol.type == STT_SECTION && symbol.name.empty()) symbol.name = elf.section_name(symbol.section);
    elf.symbols.push_back(std::move(symbol));
  }

  elf.relocations_of.resize(elf.symbols.size());
  for (const Elf64_Shdr& h : headers) {
    if ((h.sh_type != SHT_RELA && h.sh_type != SHT_REL) || h.sh_link != symtab.index) continue;
    const bool rela = h.sh_type == SHT_RELA;
    const uint64_t size = rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    if (h.sh_size / size > r.size() / size) r.damaged("it claims more relocations than the file can hold");
    for (uint64_t k = 0; k < h.sh_size / size; ++k) {
      const uint64_t at = h.sh_offset + k * size;
      const auto rel =
          rela ? r.at<Elf64_Rela>(at) : Elf64_Rela{r.at<Elf64_Rel>(at).r_offset, r.at<Elf64_Rel>(at).r_info, 0};
      const uint32_t symbol = ELF64_R_SYM(rel.r_info);
      if (symbol >= elf.symbols.size()) r.damaged("a relocation names a symbol that is not in the table");
      elf.relocations_of[symbol].push_back(elf.relocations.size());
      elf.relocations.push_back(
          {h.sh_info, rel.r_offset, symbol, static_cast<uint32_t>(ELF64_R_TYPE(rel.r_info)), rel.r_addend});
    }
  }
  return elf;
}

}  // namespace gpulab::audit
