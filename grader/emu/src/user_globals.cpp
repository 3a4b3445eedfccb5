// The program's writable variables, read from its ELF symbol table (see user_globals.hpp).
// Written by hand: a few dozen lines of <elf.h>, where a library (libelf) would be one more
// dependency of every program the emulator builds.
#include "user_globals.hpp"

#include <elf.h>
#include <link.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace gpulab::emu {
namespace {

// The emulator's own variables (namespace gpulab, its function-local statics and their guards).
bool is_emulator_symbol(const char* name) { return std::strstr(name, "6gpulab") != nullptr; }

uintptr_t main_program_bias() {
  uintptr_t bias = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        *static_cast<uintptr_t*>(data) = info->dlpi_addr;
        return 1;  // the first object is the program itself
      },
      &bias);
  return bias;
}

std::optional<std::vector<MemoryRange>> read_user_globals() {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  const std::string elf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (elf.size() < sizeof(Elf64_Ehdr) || std::memcmp(elf.data(), ELFMAG, SELFMAG) != 0) return std::nullopt;
  Elf64_Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shoff == 0 ||
      eh.e_shoff + static_cast<size_t>(eh.e_shnum) * sizeof(Elf64_Shdr) > elf.size()) {
    return std::nullopt;
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  std::memcpy(sections.data(), elf.data() + eh.e_shoff, sections.size() * sizeof(Elf64_Shdr));
  const uintptr_t bias = main_program_bias();
  std::vector<MemoryRange> ranges;
  bool found = false;
  for (const Elf64_Shdr& sh : sections) {
    if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= sections.size()) continue;
    const Elf64_Shdr& names = sections[sh.sh_link];
    if (sh.sh_offset + sh.sh_size > elf.size() || names.sh_offset + names.sh_size > elf.size()) return std::nullopt;
    found = true;
    for (size_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, elf.data() + sh.sh_offset + off, sizeof sym);
      if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_size == 0 || sym.st_shndx == SHN_UNDEF ||
          sym.st_shndx >= sections.size() || sym.st_name >= names.sh_size) {
        continue;
      }
      const Elf64_Shdr& home = sections[sym.st_shndx];
      if (!(home.sh_flags & SHF_WRITE) || !(home.sh_flags & SHF_ALLOC) || (home.sh_flags & SHF_TLS)) continue;
      const char* name = elf.data() + names.sh_offset + sym.st_name;
      if (is_emulator_symbol(name)) continue;
      ranges.push_back(MemoryRange{bias + sym.st_value, sym.st_size});
    }
  }
  if (!found) return std::nullopt;
  std::sort(ranges.begin(), ranges.end(), [](const MemoryRange& a, const MemoryRange& b) { return a.begin < b.begin; });
  std::vector<MemoryRange> merged;
  for (const MemoryRange& r : ranges) {
    if (!merged.empty() && r.begin <= merged.back().begin + merged.back().size) {
      merged.back().size = std::max(merged.back().size, r.begin + r.size - merged.back().begin);
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

}  // namespace

const std::optional<std::vector<MemoryRange>>& user_globals() {
  static const std::optional<std::vector<MemoryRange>> ranges = read_user_globals();
  return ranges;
}

}  // namespace gpulab::emu
