// Code that runs outside the graded function: constructors and destructors other than the
// compiler's own, start-up sections, IFUNC resolvers; and an object that asks for an executable
// stack or writable code (see checks.hpp).
#include <elf.h>

#include <cctype>
#include <map>

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
  return s.type == SHT_INIT_ARRAY || s.name == ".init_array" || s.name == ".ctors" ||
         starts_with(s.name, ".init_array.") || starts_with(s.name, ".ctors.");
}
bool is_destructor_list(const ElfSection& s) {
  return s.type == SHT_FINI_ARRAY || s.name == ".fini_array" || s.name == ".dtors" ||
         starts_with(s.name, ".fini_array.") || starts_with(s.name, ".dtors.");
}
bool is_preinit_list(const ElfSection& s) {
  return s.type == SHT_PREINIT_ARRAY || starts_with(s.name, ".preinit_array");
}

// The compiler's own start-up functions: g++'s initialiser of the translation unit (global
// objects' constructors, <iostream>'s, the emulator's kernel registrations) and nvcc's
// registration of the fatbinary. Both are local to the object.
bool compilers_own(const ElfSymbol& s) {
  const std::string key = symbol_key(demangled(s.name));
  return s.bind == STB_LOCAL && s.type == STT_FUNC &&
         (starts_with(key, "_GLOBAL__sub_I_") || key == "__sti____cudaRegisterAll");
}

PlacedFinding startup_finding(const std::string& what, const std::string& sentence,
                              std::optional<CodePlace> place = std::nullopt, const std::string& where = "") {
  return {{FindingKind::early_constructor, what, sentence, where}, place};
}

const char* kOnlyWhenCalled =
    ": a submission's code runs only when the harness calls it; do the work in the graded function";

// What an entry of a list section does, for the sentence: "runs F <when>".
std::string when_it_runs(const ElfSection& s) {
  if (is_preinit_list(s)) return "before the program starts (section " + s.name + ")";
  if (is_destructor_list(s))
    return "after main (a destructor, e.g. __attribute__((destructor)), section " + s.name + ")";
  if (has_priority(s.name)) return "before main (a constructor with a priority, section " + s.name + ")";
  return "before main (a constructor, e.g. __attribute__((constructor)))";
}

// Each entry of a start-up list must be one of the compiler's own functions (each of those at
// most once, in a constructor list without priority); an entry without a relocation is not a
// function of the object's.
void check_list(const ObjectUnderAudit& o, uint32_t index, std::vector<PlacedFinding>& out) {
  const ElfSection& list = o.elf.sections[index];
  const bool plain_constructors = is_constructor_list(list) && !has_priority(list.name);
  size_t entries = 0;
  std::map<std::string, int> compiler_entries;  // by kind: g++'s initialiser, nvcc's registration
  for (const ElfRelocation& r : o.elf.relocations) {
    if (r.applies_to != index) continue;
    ++entries;
    const ElfSymbol& target = o.elf.symbols[r.symbol];
    const ElfSymbol* function = target.type == STT_SECTION ? o.elf.function_at(target.section, r.addend) : &target;
    if (plain_constructors && function && compilers_own(*function)) {
      const std::string key = symbol_key(demangled(function->name));
      if (++compiler_entries[key.rfind("_GLOBAL__sub_I_", 0) == 0 ? "g++" : "nvcc"] == 1) continue;
    }
    const std::string name = function ? shown_name(function->name) : target.name + "+" + std::to_string(r.addend);
    std::optional<CodePlace> place;
    if (function && function->defined()) place = CodePlace{function->section, function->value};
    out.push_back(startup_finding(name, "runs " + name + " " + when_it_runs(list) + kOnlyWhenCalled, place));
  }
  if (list.size / 8 != entries) {
    out.push_back(startup_finding(
        list.name, "has an entry in " + list.name + " that is not a function of its own" + kOnlyWhenCalled,
        std::nullopt, "section " + list.name));
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
                        "section .note.GNU-stack"},
                       std::nullopt});
      }
    }
    if (s.name == "gpulab_managed") {  // the emulator's __managed__ variables (qualifiers.hpp)
      out.push_back({{FindingKind::host_visible_memory, "__managed__",
                      "declares __managed__ variables, memory that kernels write and the host reads without a copy; "
                      "this lab's graded functions use device memory (cudaMalloc) and cudaMemcpy instead",
                      "section gpulab_managed"},
                     std::nullopt});
    }
    if ((s.flags & SHF_EXECINSTR) && (s.flags & SHF_WRITE)) {
      out.push_back({{FindingKind::other, s.name,
                      "has code that can be written while it runs (section " + s.name +
                          " is writable and executable): a submission's code has no use for it",
                      "section " + s.name},
                     std::nullopt});
    }
    if (is_preinit_list(s) || is_destructor_list(s) || is_constructor_list(s)) {
      check_list(o, i, out);
    } else if (s.name == ".init" || s.name == ".fini") {
      out.push_back(startup_finding(
          s.name,
          "adds code to the program's " + s.name.substr(1) + " section, which runs outside main" + kOnlyWhenCalled,
          std::nullopt, "section " + s.name));
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
    out.push_back(startup_finding(
        shown_name(s.name),
        "defines " + shown_name(s.name) + " as an IFUNC, whose resolver runs while the program is loaded, before main" +
            kOnlyWhenCalled,
        s.defined() ? std::optional<CodePlace>(CodePlace{s.section, s.value}) : std::nullopt));
  }
}

}  // namespace gpulab::audit
