// The lab's library algorithms in the object (library_algorithms.hpp): every symbol, defined or
// referenced, local or global, is read for the names it mentions, and each algorithm of the lab
// that one of them matches is one finding. It names the most telling of its names (the earliest
// pattern: the API a student calls before the kernels it launches) and the program's own function
// that reaches it (see checks.hpp).
#include <elf.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <functional>
#include <tuple>

#include "audit/checks.hpp"
#include "audit/library_algorithms.hpp"
#include "audit/symbol_names.hpp"

namespace gpulab::audit {

namespace {
constexpr std::string_view kStub = "__device_stub_";

enum class Verb { calls, launches, launches_kernel_of, uses };

const char* verb_text(Verb v) {
  switch (v) {
    case Verb::calls: return "calls";
    case Verb::launches: return "launches";
    case Verb::launches_kernel_of: return "launches a kernel of";
    case Verb::uses: return "uses";
  }
  return "uses";
}

struct Hit {
  uint32_t symbol = 0;
  std::string name;
  size_t pattern = 0;
  Verb verb = Verb::uses;
  // The most telling first: the earliest pattern, a call before a mention, the shortest name.
  bool operator<(const Hit& o) const {
    if (pattern != o.pattern) return pattern < o.pattern;
    if (verb != o.verb) return verb < o.verb;
    if (name.size() != o.name.size()) return name.size() < o.name.size();
    return name < o.name;
  }
};

// The mangled name of the kernel an nvcc stub launches: the stub's own name is the source name
// `__device_stub_` + the kernel's mangled name, written with its length (`_Z139__device_stub__ZN3cub...`,
// `_ZGVZ139__device_stub__ZN3cub...E5__tmp` for its guard variables). Empty for any other symbol.
std::string stub_kernel(const std::string& mangled) {
  const size_t at = mangled.find(kStub);
  if (at == std::string::npos) return "";
  size_t digits = at;
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(mangled[digits - 1]))) --digits;
  if (digits == at) return "";
  const size_t length = std::stoul(mangled.substr(digits, at - digits));
  if (length <= kStub.size() || at + length > mangled.size()) return "";
  return mangled.substr(at + kStub.size(), length - kStub.size());
}

// Whether `name` is what a symbol is itself (for a stub: the kernel), or the function a local
// entity of it belongs to (`cub::DeviceReduce::Sum<...>(...)::__cub_nvtx3_func_attr`, a static of the
// inlined function): a call of the algorithm, not a mention of it in a template argument.
bool own_name(const std::string& demangled_name, const std::string& name) {
  if (without_inline_namespaces(symbol_key(demangled_name)) == name) return true;
  const size_t local = demangled_name.rfind(")::");
  return local != std::string::npos &&
         without_inline_namespaces(symbol_key(demangled_name.substr(0, local + 1))) == name;
}

// A code reference: the instruction at `offset` of `section` reaches symbol `target`.
struct Reference {
  uint32_t section = 0;
  uint64_t offset = 0;
  uint32_t target = 0;
};

// The object's code references, from its relocations (against a function, or against a section
// at an offset: `.text+0x37c`, a local function of another section) and from the disassembly,
// where the assembler resolved a call or an address in the same section itself
// ("call 266 <...>", "lea ...(%rip) # 2a0 <...>").
std::vector<Reference> code_references(const ElfObject& elf, const std::string& listing) {
  std::vector<Reference> refs;
  for (const ElfRelocation& r : elf.relocations) {
    if (r.applies_to >= elf.sections.size() || !(elf.sections[r.applies_to].flags & SHF_EXECINSTR)) continue;
    if (r.symbol >= elf.symbols.size()) continue;
    const ElfSymbol& target = elf.symbols[r.symbol];
    if (target.type != STT_SECTION) {
      refs.push_back({r.applies_to, r.offset, r.symbol});
      continue;
    }
    // x86-64's PC-relative forms count from the end of their 4-byte field.
    const bool pc32 = elf.machine == EM_X86_64 && (r.type == R_X86_64_PC32 || r.type == R_X86_64_PLT32);
    const int64_t at = r.addend + (pc32 ? 4 : 0);
    if (const ElfSymbol* f = at >= 0 ? elf.function_at(target.section, static_cast<uint64_t>(at)) : nullptr) {
      refs.push_back({r.applies_to, r.offset, static_cast<uint32_t>(f - elf.symbols.data())});
    }
  }
  std::map<std::string, uint32_t> section_index;
  for (uint32_t i = 0; i < elf.sections.size(); ++i) section_index.emplace(elf.sections[i].name, i);
  const std::string heading = "Disassembly of section ";
  std::istringstream lines(listing);
  uint32_t section = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(heading, 0) == 0 && line.size() > heading.size() && line.back() == ':') {
      const auto it = section_index.find(line.substr(heading.size(), line.size() - heading.size() - 1));
      section = it == section_index.end() ? 0 : it->second;
      continue;
    }
    if (section == 0 || line.empty() || line[0] != ' ' || line.back() != '>') continue;
    const size_t digits = line.find_first_not_of(' ');
    const size_t colon = line.find(':', digits);
    const size_t open = line.rfind(" <");
    if (colon == std::string::npos || open == std::string::npos || open <= colon) continue;
    size_t start = open;
    while (start > colon && std::isxdigit(static_cast<unsigned char>(line[start - 1]))) --start;
    if (start == open || line.find_first_not_of("0123456789abcdef", digits) != colon) continue;
    const uint64_t offset = std::stoull(line.substr(digits, colon - digits), nullptr, 16);
    const uint64_t target = std::stoull(line.substr(start, open - start), nullptr, 16);
    if (const ElfSymbol* f = elf.function_at(section, target)) {
      refs.push_back({section, offset, static_cast<uint32_t>(f - elf.symbols.data())});
    }
  }
  return refs;
}

std::string sentence(const LibraryRules& rules, const LibraryAlgorithm& algorithm, const Hit& hit) {
  std::string s = std::string(verb_text(hit.verb)) + " " + hit.name + ", " + algorithm.is;
  if (!rules.task.empty()) s += ": this lab asks you to " + rules.task;
  if (!rules.allowed.empty()) s += "; " + rules.allowed;
  return s + ". Your points are held for the instructor's review";
}
}  // namespace

void check_library_algorithms(const ObjectUnderAudit& o, std::vector<PlacedFinding>& out) {
  const LibraryRules& rules = o.library;
  if (rules.algorithms.empty()) return;
  const ElfObject& elf = o.elf;
  // The kernels, by their demangled names (a kernel of internal linkage is mangled with an `L`
  // its stub's copy of the name lacks).
  std::set<std::string> kernels;
  for (const ElfSymbol& s : elf.symbols) {
    if (const std::string k = stub_kernel(s.name); !k.empty()) kernels.insert(demangled(k));
  }
  std::vector<bool> kernel_code(elf.symbols.size(), false);
  std::vector<std::vector<Hit>> hits(rules.algorithms.size());
  std::vector<bool> library_code(elf.symbols.size(), false);  // a symbol of the library's own code
  for (uint32_t i = 0; i < elf.symbols.size(); ++i) {
    const ElfSymbol& s = elf.symbols[i];
    if (s.name.empty() || s.type == STT_SECTION || s.type == STT_FILE) continue;
    const std::string name(unversioned(s.name));
    const std::string kernel = stub_kernel(name);
    // The function itself, not the compiler's copy of a part of it ("f() [clone .cold]").
    std::string own = demangled(kernel.empty() ? name : kernel);
    if (const size_t clone = own.find(" [clone "); clone != std::string::npos) own.erase(clone);
    const bool is_kernel = !kernel.empty() || kernels.count(own) > 0;
    kernel_code[i] = is_kernel;
    for (const std::string& mentioned : mentioned_names(demangled(name))) {
      const std::optional<LibraryMatch> m = match_library_algorithm(rules, mentioned);
      if (!m) continue;
      library_code[i] = true;
      const bool itself = own_name(own, mentioned);
      const Verb verb = is_kernel ? (itself ? Verb::launches : Verb::launches_kernel_of)
                        : itself  ? Verb::calls
                                  : Verb::uses;
      hits[m->algorithm].push_back({i, mentioned, m->pattern, verb});
    }
  }
  const std::vector<Reference> refs = code_references(elf, o.listing);
  for (size_t a = 0; a < rules.algorithms.size(); ++a) {
    if (hits[a].empty()) continue;
    const Hit& best = *std::min_element(hits[a].begin(), hits[a].end());
    // Where the program's own code reaches it: a reference from a function that is neither the
    // library's nor the compiler's (nvcc's registration, stubs and initialisers start with "_").
    std::set<uint32_t> algorithm_symbols;
    for (const Hit& h : hits[a]) algorithm_symbols.insert(h.symbol);
    std::optional<CodePlace> place;
    for (const Reference& r : refs) {
      if (!algorithm_symbols.count(r.target)) continue;
      const ElfSymbol* f = elf.function_at(r.section, r.offset);
      const size_t caller = f ? static_cast<size_t>(f - elf.symbols.data()) : 0;
      if (!f || library_code[caller] || kernel_code[caller]) continue;
      if (const std::string function = demangled(f->name); function.empty() || function[0] == '_') continue;
      place = CodePlace{r.section, r.offset};
      break;
    }
    out.push_back({{FindingKind::library_algorithm, best.name, sentence(rules, rules.algorithms[a], best), ""}, place});
  }
}

}  // namespace gpulab::audit
