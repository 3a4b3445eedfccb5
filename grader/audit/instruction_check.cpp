// Instructions a graded function's code has no use for, found by disassembling the object's
// executable sections with binutils' objdump (see checks.hpp). objdump is there wherever gpulab
// compiles (g++ needs binutils' assembler and linker), reads every ELF the toolchain writes, and
// its AT&T listing names each instruction by its mnemonic, so no disassembler is linked in.
#include <elf.h>

#include <cctype>
#include <map>
#include <sstream>

#include "audit/checks.hpp"
#include "files/grader_error.hpp"
#include "process/run.hpp"

namespace gpulab::audit {

namespace {
struct Forbidden {
  FindingKind kind;
  const char* what;  // "(a system call made without the C library)"
};

// By mnemonic, as objdump writes it (AT&T syntax on x86-64).
const std::map<std::string, Forbidden>& forbidden_x86() {
  static const std::map<std::string, Forbidden> m = [] {
    std::map<std::string, Forbidden> f;
    const Forbidden system_call{FindingKind::raw_system_call, "a system call made without the C library"};
    const Forbidden interrupt{FindingKind::raw_system_call, "a software interrupt, the old way to make a system call"};
    const Forbidden far{FindingKind::raw_system_call,
                        "a far call, jump or return, which can switch the processor to 32-bit code to make system "
                        "calls unseen"};
    const Forbidden keys{FindingKind::raw_system_call, "changes the memory protection keys of the process"};
    f["syscall"] = system_call;
    f["sysenter"] = system_call;
    for (const char* m : {"int", "int1", "into"}) f[m] = interrupt;
    for (const char* m : {"lcall", "ljmp", "lret", "lretq", "lretl", "lretw", "iret", "iretq", "iretl", "iretw"})
      f[m] = far;
    for (const char* m : {"wrpkru", "xrstor", "xrstor64", "xrstors", "xrstors64"}) f[m] = keys;
    return f;
  }();
  return m;
}

const std::map<std::string, Forbidden>& forbidden_aarch64() {
  static const std::map<std::string, Forbidden> m = {
      {"svc", {FindingKind::raw_system_call, "a system call made without the C library"}},
      {"hvc", {FindingKind::raw_system_call, "a call to the hypervisor"}},
      {"smc", {FindingKind::raw_system_call, "a call to the secure monitor"}},
  };
  return m;
}

// The instruction's mnemonic, after prefixes objdump writes as words of their own.
std::string mnemonic(const std::string& instruction) {
  static const std::vector<std::string> prefixes = {"lock",    "rep", "repz",   "repnz",  "repe",   "repne",
                                                    "notrack", "bnd", "data16", "data32", "addr32", "cs",
                                                    "ds",      "es",  "fs",     "gs",     "ss"};
  std::istringstream words(instruction);
  std::string word;
  while (words >> word) {
    if (word.rfind("rex", 0) == 0) continue;  // rex, rex.W, rex.WB, ...
    bool prefix = false;
    for (const std::string& p : prefixes) prefix = prefix || word == p;
    if (!prefix) return word;
  }
  return {};
}
}  // namespace

std::string disassemble(const std::filesystem::path& object) {
  process::ProcessOptions options;
  options.search_path = true;
  options.time_limit_s = 120;
  const process::ProcessResult p =
      process::run({"objdump", "-d", "-w", "--no-show-raw-insn", object.string()}, options);
  if (!p.started() || p.status() != 0) {
    throw files::GraderError("the audit cannot disassemble " + object.string() +
                             " with objdump: " + (p.started() ? p.output.substr(0, 500) : p.spawn_error) +
                             "; install binutils (it provides objdump, nm and addr2line)");
  }
  return p.output;
}

void check_instructions(const ObjectUnderAudit& o, std::vector<PlacedFinding>& out) {
  const auto& forbidden = o.elf.machine == EM_AARCH64 ? forbidden_aarch64() : forbidden_x86();
  std::map<std::string, uint32_t> section_index;
  for (uint32_t i = 0; i < o.elf.sections.size(); ++i) section_index.emplace(o.elf.sections[i].name, i);
  // Lines are "Disassembly of section NAME:", "0000000000000000 <function>:" and, for each
  // instruction, "  OFFSET:<tab>MNEMONIC OPERANDS" (parsed by hand: an object's listing is long).
  const std::string heading = "Disassembly of section ";
  std::istringstream lines(o.listing);
  uint32_t section = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(heading, 0) == 0 && line.size() > heading.size() && line.back() == ':') {
      const auto it = section_index.find(line.substr(heading.size(), line.size() - heading.size() - 1));
      section = it == section_index.end() ? 0 : it->second;
      continue;
    }
    if (line.empty() || line[0] != ' ') continue;
    const size_t digits = line.find_first_not_of(' ');
    const size_t colon = line.find(':', digits);
    if (colon == std::string::npos || colon == digits || line.find_first_not_of("0123456789abcdef", digits) != colon) {
      continue;
    }
    const uint64_t offset = std::stoull(line.substr(digits, colon - digits), nullptr, 16);
    std::string instruction = line.substr(colon + 1);
    instruction.erase(0, instruction.find_first_not_of(" \t") == std::string::npos
                             ? instruction.size()
                             : instruction.find_first_not_of(" \t"));
    if (const size_t comment = instruction.find_first_of("#<"); comment != std::string::npos)
      instruction.erase(comment);
    // One space between the words: "int    $0x80" -> "int $0x80".
    std::istringstream words(instruction);
    instruction.clear();
    for (std::string word; words >> word;) instruction += (instruction.empty() ? "" : " ") + word;
    const auto hit = forbidden.find(mnemonic(instruction));
    if (hit == forbidden.end()) continue;
    out.push_back({{hit->second.kind, instruction,
                    "contains the instruction `" + instruction + "` (" + hit->second.what +
                        "); a graded function has no use for it",
                    ""},
                   CodePlace{section, offset}});
  }
}

}  // namespace gpulab::audit
