// Code that runs outside the graded function: constructors and destructors other than the
// compiler's own, start-up sections, IFUNC resolvers; and an object that asks for an executable
// stack or writable code (see checks.hpp).
#include <elf.h>

#include <cctype>

#include "audit/checks.hpp"
#include "audit/symbol_names.hpp"

namespace gpulab::audit {

namespace {
bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// ".init_array.00101", ".ctors.65434": an explicit priority.
bool has_priority(const std::string& name) {
  for (const char* base : {".init_array.", ".ctors.", ".fini_array.", ".dtors.", ".preinit_array."}) {
    if (!starts_with(name, base)) continue;
    const std::string rest = name.substr(std::string(base).size());
    if (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) return true;
  }
  return false;
}

bool is_constructor_list(const ElfSection& s) {
  return s.type == SHT_INIT_ARRAY || s.name == ".init_array" || s.name == ".ctors" || starts_with(s.name, ".init_array.") ||
         starts_with(s.name, ".ctors.");
}
bool is_destructor_list(const ElfSection& s) {
  return s.type == SHT_FINI_ARRAY || s.name == ".fini_array" || s.name == ".dtors" || starts_with(s.name, ".fini_array.") ||
         starts_with(s.name, ".dtors.");
}
bool is_preinit_list(const ElfSection& s) { return s.type == SHT_PREINIT_ARRAY || starts_with(s.name, ".preinit_array"); }

// The compiler's own start-up functions: g++'s initialiser of the translation unit (global
// objects' constructors, <iostream>'s, the emulator's kernel registrations) and nvcc's
// registration of the fatbinary. Both are local to the object.
bool compilers_own(const ElfSymbol& s) {
  const std::string key = symbol_key(demangled(s.name));
  return s.bind == STB_LOCAL && s.type == STT_FUNC &&
         (starts_with(key, "_GLOBAL__sub_I_") || key == "__sti____cudaRegisterAll");
}

PlacedFinding startup_finding(const std::string& what, const std::string& sentence,
                              std::optional<CodePlace> place = std::nullopt) {
  return {{FindingKind::early_constructor, what, sentence, ""}, place};
}

// Each entry of a constructor list must be the compiler's own function, and each at most once.
void check_constructor_list(const ObjectUnderAudit& o, uint32_t index, std::vector<PlacedFinding>& out) {
  const ElfSection& list = o.elf.sections[index];
  size_t entries = 0, compiler_entries = 0;
  for (const ElfRelocation& r : o.elf.relocations) {
    if (r.applies_to != index) continue;
    ++entries;
    const ElfSymbol& target = o.elf.symbols[r.symbol];
    const ElfSymbol* function = target.type == STT_SECTION ? o.elf.function_at(target.section, r.addend) : &target;
    if (function && compilers_own(*function)) {
      ++compiler_entries;
      continue;
    }
    const std::string name = function ? shown_name(function->name) : target.name + "+" + std::to_string(r.addend);
    std::optional<CodePlace> place;
    if (function && function->defined()) place = CodePlace{function->section, function->value};
    out.push_back(startup_finding(name,
                                  "runs " + name +
                                      " before main (a constructor, e.g. __attribute__((constructor))): a submission's "
                                      "code runs only when the harness calls it; do the work in the graded function",
                                  place));
  }
  if (compiler_entries > 1) {
    out.push_back(startup_finding(list.name, "has more than one start-up function named like the compiler's own (" +
                                                 list.name + "): a submission may not name its functions so"));
  }
  const uint64_t pointer = 8;
  if (list.size / pointer != entries) {
    out.push_back(startup_finding(list.name, "has an entry in " + list.name +
                                                 " that is not a function of its own: a submission's code runs only "
                                                 "when the harness calls it"));
  }
}
}  // namespace

void check_startup(const ObjectUnderAudit& o, std::vector<PlacedFinding>& out) {
  bool stack_note = false;
  for (uint32_t i = 0; i < o.elf.sections.size(); ++i) {
    const ElfSection& s = o.elf.sections[i];
    if (s.name == ".note.GNU-stack") {
      stack_note = true;
      if (s.flags & SHF_EXECINSTR) {
        out.push_back({{FindingKind::executable_stack, s.name,
                        "asks for an executable stack (its .note.GNU-stack section is marked executable): a "
                        "submission's code has no use for one",
                        ".note.GNU-stack"},
                       std::nullopt});
      }
    }
    if ((s.flags & SHF_EXECINSTR) && (s.flags & SHF_WRITE)) {
      out.push_back({{FindingKind::other, s.name,
                      "has code that can be written while it runs (section " + s.name +
                          " is writable and executable): a submission's code has no use for it",
                      s.name},
                     std::nullopt});
    }
    if (has_priority(s.name)) {
      out.push_back(startup_finding(s.name, "has a constructor or destructor with a priority (section " + s.name +
                                                "): a submission's code runs only when the harness calls it"));
    } else if (is_preinit_list(s)) {
      out.push_back(startup_finding(s.name, "has code that runs before the program starts (section " + s.name +
                                                "): a submission's code runs only when the harness calls it"));
    } else if (is_destructor_list(s)) {
      out.push_back(startup_finding(s.name, "has a destructor function that runs after main (section " + s.name +
                                                ", e.g. __attribute__((destructor))): a submission's code runs only "
                                                "when the harness calls it"));
    } else if (s.name == ".init" || s.name == ".fini") {
      out.push_back(startup_finding(s.name, "adds code to the program's " + s.name.substr(1) +
                                                " section, which runs outside main: a submission's code runs only "
                                                "when the harness calls it"));
    } else if (is_constructor_list(s)) {
      check_constructor_list(o, i, out);
    }
  }
  if (!stack_note) {
    out.push_back({{FindingKind::executable_stack, ".note.GNU-stack",
                    "asks for an executable stack (it has no .note.GNU-stack section, as assembly written by hand "
                    "may leave out): a submission's code has no use for one",
                    "the object"},
                   std::nullopt});
  }
  for (const ElfSymbol& s : o.elf.symbols) {
    if (s.type != STT_GNU_IFUNC) continue;
    out.push_back(startup_finding(shown_name(s.name),
                                  "defines " + shown_name(s.name) +
                                      " as an IFUNC, whose resolver runs while the program is loaded, before main: a "
                                      "submission's code runs only when the harness calls it",
                                  s.defined() ? std::optional<CodePlace>(CodePlace{s.section, s.value}) : std::nullopt));
  }
}

}  // namespace gpulab::audit
