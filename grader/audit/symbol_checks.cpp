// Interposition and references: the object's symbol table against the protected libraries and
// the allowlist (see checks.hpp).
#include <elf.h>

#include "audit/checks.hpp"
#include "audit/symbol_names.hpp"

namespace gpulab::audit {

namespace {
bool weak_in_object(const ObjectUnderAudit& o, const ElfSymbol& s) {
  return s.bind == STB_WEAK || s.bind == STB_GNU_UNIQUE ||
         (s.section < o.elf.sections.size() && o.elf.sections[s.section].in_comdat);
}

// Where the object refers to symbol `index` first: a relocation in its code, else in its data.
std::optional<CodePlace> first_use(const ElfObject& elf, uint32_t index) {
  std::optional<CodePlace> in_data;
  for (const size_t k : elf.relocations_of[index]) {
    const ElfRelocation& r = elf.relocations[k];
    if (r.applies_to >= elf.sections.size()) continue;
    const ElfSection& section = elf.sections[r.applies_to];
    if (section.flags & SHF_EXECINSTR) return CodePlace{r.applies_to, r.offset};
    if ((section.flags & SHF_ALLOC) && !in_data) in_data = CodePlace{r.applies_to, r.offset};
  }
  return in_data;
}

// Whether every reference to symbol `index` is inside an inline (COMDAT) function whose key
// matches one of `functions` (and there is at least one).
bool only_from(const ElfObject& elf, uint32_t index, const std::vector<std::string>& functions) {
  bool any = false;
  for (const size_t k : elf.relocations_of[index]) {
    const ElfRelocation& r = elf.relocations[k];
    const ElfSymbol* f = r.applies_to < elf.sections.size() ? elf.function_at(r.applies_to, r.offset) : nullptr;
    if (!f || !elf.sections[r.applies_to].in_comdat || !matches_any(functions, symbol_key(demangled(f->name)))) {
      return false;
    }
    any = true;
  }
  return any;
}

bool called(const ElfObject& elf, uint32_t index) {
  for (const size_t k : elf.relocations_of[index]) {
    if (elf.is_call(elf.relocations[k])) return true;
  }
  return false;
}
}  // namespace

std::string shown_name(const std::string& mangled) {
  const std::string key = symbol_key(demangled(std::string(unversioned(mangled))));
  return key.empty() ? demangled(std::string(unversioned(mangled))) : key;
}

void check_definitions(const ObjectUnderAudit& o, std::vector<PlacedFinding>& out) {
  for (const ElfSymbol& s : o.elf.symbols) {
    if (!s.defined() || s.name.empty() || s.type == STT_SECTION || s.type == STT_FILE) continue;
    if (s.bind != STB_GLOBAL && s.bind != STB_WEAK && s.bind != STB_GNU_UNIQUE) continue;
    const std::string name(unversioned(s.name));
    if (name == "main") continue;  // the grader tells students to remove their own main
    if (matches_any(o.calls.hooks, name)) {
      out.push_back({{FindingKind::early_constructor, demangled(name),
                      "defines " + shown_name(name) +
                          ", which the program's start-up code or a library calls by itself when a program "
                          "defines it: a submission's code runs only when the harness calls it",
                      ""},
                     CodePlace{s.section, s.value}});
      continue;
    }
    const std::string full = demangled(name);
    const std::string key = symbol_key(full);
    const bool weak = weak_in_object(o, s);
    std::string owner;
    if (o.calls.is_harness(key)) owner = "the grader's harness";
    if (const auto* defs = o.protected_symbols.find(name); defs && owner.empty()) {
      for (const LibraryDefinition& d : *defs) {
        // Both copies weak: a template's or inline function's instantiation from the same header (the
        // linker keeps either, the same code). A weak copy of what the library defines strongly
        // (say, std::chrono::steady_clock::now declared inline again) would replace it.
        if (weak && d.weak) continue;
        owner = o.protected_symbols.libraries[d.library].description;
        break;
      }
    }
    if (owner.empty()) continue;
    out.push_back({{FindingKind::interposition, full,
                    "defines " + shown_name(name) + ", a name " + owner +
                        " already defines: the program would use the submission's instead; rename it (a submission "
                        "may not replace the grader's, the runtime's or the system's functions)",
                    ""},
                   CodePlace{s.section, s.value}});
  }
}

void check_references(const ObjectUnderAudit& o, std::vector<PlacedFinding>& out) {
  for (uint32_t i = 0; i < o.elf.symbols.size(); ++i) {
    const ElfSymbol& s = o.elf.symbols[i];
    if (!s.undefined || s.name.empty() || (s.bind != STB_GLOBAL && s.bind != STB_WEAK)) continue;
    const std::string name(unversioned(s.name));
    // The assembler names the GOT in the symbol table of code that uses thread-local variables;
    // only a relocation against it is the program's own use.
    if (name == "_GLOBAL_OFFSET_TABLE_" && !first_use(o.elf, i)) continue;
    const std::string full = demangled(name);
    const std::string key = symbol_key(full);
    const std::string verb = called(o.elf, i) ? "calls " : "uses ";
    const auto defined_in = [&](const std::string& library) { return o.protected_symbols.defined_in(name, library); };
    Finding f{FindingKind::forbidden_call, full, "", ""};
    bool harness_strong = false;
    if (const auto* defs = o.protected_symbols.find(name)) {
      for (const LibraryDefinition& d : *defs) {
        harness_strong = harness_strong || (o.protected_symbols.libraries[d.library].id == "harness" && !d.weak);
      }
    }
    if (o.calls.is_harness(key) || harness_strong) {
      f.kind = FindingKind::harness_reference;
      f.sentence = "refers to " + shown_name(name) +
                   ", part of the grader's harness; a submission may not use the grader's own code";
    } else if (const AllowEntry* a = o.calls.allowed_only_from(key, o.backend);
               a && only_from(o.elf, i, a->only_from)) {
      continue;
    } else if (const DenyEntry* deny = o.calls.denied(key, o.backend)) {
      f.kind = deny->kind;
      f.sentence = verb + shown_name(name) + ", which " + deny->does + "; a graded function has no use for it";
    } else if (o.calls.allowed(key, o.backend, defined_in)) {
      continue;
    } else if (mentions_library_algorithm(o.library, full)) {
      continue;  // a library algorithm of the lab (cublasSgemm): check_library_algorithms says why
    } else {
      f.sentence = verb + shown_name(name) +
                   ", which is not among what a graded function may use (the list is "
                   "grader/audit/allowed_calls.json; ask your instructor if you need it)";
    }
    out.push_back({f, first_use(o.elf, i)});
  }
}

}  // namespace gpulab::audit
