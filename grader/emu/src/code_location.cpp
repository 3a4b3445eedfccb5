// code_location.hpp: the symbolizer (platform/symbolizer.hpp) run on the program's own file for
// one address, and the ELF symbol table read by hand when it cannot run (a few dozen lines of
// <elf.h>, as in user_globals.cpp, rather than one more library in every emulator program).
#include "code_location.hpp"

#include <cxxabi.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

#include "platform/executable_path.hpp"
#include "platform/symbolizer.hpp"

#if defined(__linux__)
#include <elf.h>
#include <link.h>
#endif

extern char** environ;

namespace gpulab::emu {
namespace {

[[maybe_unused]] std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// What the symbolizer prints for one address, or "" (not found, or it could not run: a graded
// program's system-call filter refuses the executable mappings a new program needs).
[[maybe_unused]] std::string run_symbolizer(const std::string& object, uintptr_t file_address) {
  std::string tried;
  std::vector<std::string> args = platform::symbolizer_command(object, tried);
  if (args.empty()) return {};
  char address[32];
  std::snprintf(address, sizeof address, "0x%lx", static_cast<unsigned long>(file_address));
  args.emplace_back(address);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int out[2];
  if (pipe(out) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  pid_t pid = -1;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  std::string text;
  if (spawned == 0) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    char buffer[4096];
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{out[0], POLLIN, 0};
      if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) {
        kill(pid, SIGKILL);
        break;
      }
      const ssize_t n = read(out[0], buffer, sizeof buffer);
      if (n <= 0) break;
      text.append(buffer, static_cast<size_t>(n));
    }
    int status = 0;
    waitpid(pid, &status, 0);
  }
  close(out[0]);
  return text;
}

// The student's line among the symbolizer's (function, file:line) pairs, innermost first: the first
// outside the system's and the emulator's headers (std::copy's lines are not the student's).
[[maybe_unused]] std::string pick_line(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> locations;
  while (std::getline(in, line)) {
    if (line.rfind("0x", 0) == 0) continue;  // the address itself
    const size_t colon = line.rfind(':');
    if (colon == std::string::npos || line.find('/') == std::string::npos) continue;  // a function's name
    std::string where = line.substr(0, line.find(" ("));                              // drop " (discriminator N)"
    if (where.rfind("??", 0) == 0 || where.find(":0") == where.size() - 2 || where.back() == '?') continue;
    locations.push_back(where);
  }
  for (const std::string& where : locations) {
    if (where.rfind("/usr/", 0) == 0 || where.find("/gpulab/emu/") != std::string::npos ||
        where.find("grader/emu/") != std::string::npos) {
      continue;
    }
    return base_name(where);
  }
  return locations.empty() ? std::string() : base_name(locations.front());
}

#if defined(__linux__)
struct LoadedObject {
  std::string path;  // "" for the program itself
  uintptr_t bias = 0;
  bool found = false;
};

LoadedObject object_holding(uintptr_t pc) {
  LoadedObject o;
  struct Query {
    uintptr_t pc;
    LoadedObject* out;
  } q{pc, &o};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto& q = *static_cast<Query*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          const uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
          if (ph.p_type == PT_LOAD && q.pc >= lo && q.pc < lo + ph.p_memsz) {
            q.out->path = info->dlpi_name ? info->dlpi_name : "";
            q.out->bias = info->dlpi_addr;
            q.out->found = true;
            return 1;
          }
        }
        return 0;
      },
      &q);
  return o;
}

// One object file's functions from its symbol table, sorted by address, names not yet demangled.
struct FunctionSymbols {
  struct Function {
    uintptr_t begin = 0, end = 0;
    std::string name;
  };
  std::vector<Function> functions;
};

FunctionSymbols read_function_symbols(const std::string& object) {
  FunctionSymbols table;
  std::ifstream in(object, std::ios::binary | std::ios::ate);
  if (!in) return table;
  std::string elf(static_cast<size_t>(std::max<std::streamoff>(0, in.tellg())), '\0');
  in.seekg(0);
  if (!in.read(elf.data(), static_cast<std::streamsize>(elf.size()))) return table;
  if (elf.size() < sizeof(Elf64_Ehdr) || std::memcmp(elf.data(), ELFMAG, SELFMAG) != 0) return table;
  Elf64_Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shoff == 0 ||
      eh.e_shoff + static_cast<size_t>(eh.e_shnum) * sizeof(Elf64_Shdr) > elf.size()) {
    return table;
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  std::memcpy(sections.data(), elf.data() + eh.e_shoff, sections.size() * sizeof(Elf64_Shdr));
  for (const Elf64_Shdr& sh : sections) {
    if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= sections.size()) continue;
    const Elf64_Shdr& names = sections[sh.sh_link];
    if (sh.sh_offset + sh.sh_size > elf.size() || names.sh_offset + names.sh_size > elf.size()) return table;
    for (size_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, elf.data() + sh.sh_offset + off, sizeof sym);
      if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_size == 0 || sym.st_name >= names.sh_size) continue;
      const char* name = elf.data() + names.sh_offset + sym.st_name;
      table.functions.push_back(
          {sym.st_value, sym.st_value + sym.st_size, std::string(name, strnlen(name, names.sh_size - sym.st_name))});
    }
  }
  std::sort(table.functions.begin(), table.functions.end(),
            [](const auto& a, const auto& b) { return a.begin < b.begin; });
  return table;
}

// The function holding `file_address` in the object's symbol table, demangled, or "". The table is
// read once per object and process (a checked kernel asks for each of its call sites, and the
// program's file with its debug information is tens of megabytes).
std::string function_in_symbol_table(const std::string& object, uintptr_t file_address) {
  static std::mutex tables_mutex;
  static std::map<std::string, FunctionSymbols> tables;
  std::lock_guard<std::mutex> lock(tables_mutex);
  auto it = tables.find(object);
  if (it == tables.end()) it = tables.emplace(object, read_function_symbols(object)).first;
  const std::vector<FunctionSymbols::Function>& functions = it->second.functions;
  // Symbols may nest or overlap (aliases): the last one starting at or before the address that
  // holds it, searching back from the upper bound.
  auto f = std::upper_bound(functions.begin(), functions.end(), file_address,
                            [](uintptr_t a, const FunctionSymbols::Function& fn) { return a < fn.begin; });
  while (f != functions.begin()) {
    --f;
    if (file_address < f->end) {
      int status = 0;
      char* demangled = abi::__cxa_demangle(f->name.c_str(), nullptr, nullptr, &status);
      std::string out = status == 0 && demangled ? demangled : f->name;
      std::free(demangled);
      return out;
    }
    if (file_address - f->begin > (uintptr_t{1} << 24)) break;  // no function is that long
  }
  return {};
}
#endif

}  // namespace

bool in_program(uintptr_t pc) {
#if defined(__linux__)
  const LoadedObject o = object_holding(pc);
  return o.found && o.path.empty();
#else
  (void)pc;
  return false;
#endif
}

std::string code_location(uintptr_t pc) {
#if defined(__linux__)
  const LoadedObject o = object_holding(pc);
  if (!o.found) return {};
  const std::string object = o.path.empty() ? platform::executable_path() : o.path;
  if (object.empty()) return {};
  const uintptr_t file_address = pc - o.bias;
  std::string where = pick_line(run_symbolizer(object, file_address));
  if (!where.empty()) return where;
  const std::string function = function_in_symbol_table(object, file_address);
  return function.empty() ? std::string() : "in " + function;
#else
  (void)pc;
  return {};
#endif
}

}  // namespace gpulab::emu
