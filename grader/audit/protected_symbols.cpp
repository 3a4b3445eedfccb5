// The protected libraries' symbols, read with nm and cached on disk (see protected_symbols.hpp).
#include "audit/protected_symbols.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>

#include "audit/symbol_names.hpp"
#include "files/atomic_file.hpp"
#include "files/grader_error.hpp"
#include "process/run.hpp"
#include "toolchain/content_hash.hpp"
#include "toolchain/audit_inputs.hpp"

namespace gpulab::audit {
namespace fs = std::filesystem;

namespace {
constexpr const char* kCacheFormat = "gpulab-audit-protected-symbols 2";

// Names each library is known to define. A table without them is not the library's (nm read
// something else, or a file was cut short): the audit would pass a submission that redefines the
// runtime's timer, so such a table is read again, and never used.
const std::map<std::string, std::vector<std::string>>& anchors() {
  static const std::map<std::string, std::vector<std::string>> names = {
      {"harness", {"_ZN6gpulab7harness22kernel_launches_so_farEv"}},
      {"emulator", {"cudaEventElapsedTime", "cudaMalloc"}},
      {"cudart", {"cudaEventElapsedTime", "cudaMalloc"}},
      {"libc", {"clock_gettime", "malloc"}},
  };
  return names;
}

// What the table lacks, as "NAME (LIBRARY)" or "LIBRARY's symbols"; empty when it has every library
// of `expected` (by id and path, in order: a table of other libraries is another backend's) and
// each library's anchors.
std::string missing_anchor(const ProtectedSymbols& symbols, const std::vector<ProtectedLibrary>& expected) {
  for (size_t i = 0; i < expected.size(); ++i) {
    if (i >= symbols.libraries.size() || symbols.libraries[i].id != expected[i].id ||
        symbols.libraries[i].path != expected[i].path) {
      return expected[i].id + "'s symbols (" + expected[i].path + ")";
    }
  }
  if (symbols.libraries.size() != expected.size()) return "the same libraries as the program's";
  for (const auto& [id, names] : anchors()) {
    bool present = false;
    for (const ProtectedLibrary& l : symbols.libraries) present = present || l.id == id;
    if (!present) continue;  // not a library of this backend (the list above is checked whole)
    for (const std::string& name : names) {
      // A C++ function's mangled name too (the emulator's runtime has C++ linkage): _Z<length><name>...
      const std::string mangled = "_Z" + std::to_string(name.size()) + name;
      bool defined = symbols.defined_in(name, id);
      for (auto it = symbols.definitions.begin(); !defined && it != symbols.definitions.end(); ++it) {
        if (it->first.rfind(mangled, 0) == 0) defined = symbols.defined_in(it->first, id);
      }
      if (!defined) return name + " (" + id + ")";
    }
  }
  return {};
}

// Where the host compiler finds a library of its own (`g++ -print-file-name`); empty when it does not.
std::string compiler_library(const std::string& name) {
  const process::ProcessResult p = process::run({toolchain::host_compiler(), "-print-file-name=" + name}, {});
  std::string path = p.output;
  while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
  std::error_code ec;
  if (!p.started() || p.status() != 0 || path == name || !fs::is_regular_file(path, ec)) return {};
  return fs::canonical(path, ec).string();
}

std::string stamp(const std::string& path);

// libc, libm, libstdc++, libgcc_s and the dynamic loader, where the host compiler links them from.
// Asking the compiler costs a process per library (about 0.1 s in all), so the answer is kept in
// the cache, named by the compiler's own stamp, and used while every file it names is still there.
std::vector<ProtectedLibrary> system_libraries() {
  const std::pair<const char*, const char*> names[] = {{"libc", "libc.so.6"},
                                                       {"libm", "libm.so.6"},
                                                       {"libstdc++", "libstdc++.so.6"},
                                                       {"libgcc_s", "libgcc_s.so.1"},
                                                       {"ld.so", "ld-linux-x86-64.so.2"},
                                                       {"ld.so", "ld-linux-aarch64.so.1"}};
  const std::map<std::string, std::string> descriptions = {{"libc", "the C library"},
                                                           {"libm", "the math library"},
                                                           {"libstdc++", "the C++ library"},
                                                           {"libgcc_s", "the compiler's runtime library"},
                                                           {"ld.so", "the dynamic loader"}};
  const fs::path file =
      toolchain::cache_directory() / "audit" /
      ("system-libraries-" + toolchain::ContentHash().add(kCacheFormat).add(stamp(toolchain::host_compiler())).hex() +
       ".tsv");
  std::vector<ProtectedLibrary> found;
  std::error_code ec;
  try {
    std::istringstream lines(fs::is_regular_file(file, ec) ? files::read_whole_file(file) : std::string());
    for (std::string line; std::getline(lines, line);) {
      const size_t tab = line.find('\t');
      const std::string id = line.substr(0, tab), path = tab == std::string::npos ? "" : line.substr(tab + 1);
      if (!descriptions.count(id) || !fs::is_regular_file(path, ec)) {
        found.clear();
        break;
      }
      found.push_back({id, descriptions.at(id), path, true});
    }
  } catch (const files::GraderError&) {
    found.clear();
  }
  const auto has_libc = [&] {
    for (const ProtectedLibrary& l : found) {
      if (l.id == "libc") return true;
    }
    return false;
  };
  if (has_libc()) return found;
  found.clear();
  std::string text;
  for (const auto& [id, name] : names) {
    if (std::string path = compiler_library(name); !path.empty()) {
      found.push_back({id, descriptions.at(id), path, true});
      text += std::string(id) + "\t" + path + "\n";
    }
  }
  // Without the C library the audit would not know clock_gettime is libc's: refuse, and keep no
  // list a later run would trust.
  if (!has_libc()) {
    throw files::GraderError("the audit cannot find the C library that " + toolchain::host_compiler() +
                             " links (it answered no file to -print-file-name=libc.so.6); check the compiler's "
                             "installation");
  }
  fs::create_directories(file.parent_path(), ec);
  files::write_file_atomically(file, text);
  return found;
}

std::string stamp(const std::string& path) {
  std::error_code ec;
  const auto time = fs::last_write_time(path, ec).time_since_epoch().count();
  return path + "@" + std::to_string(time) + ":" + std::to_string(fs::file_size(path, ec));
}

// The defined global symbols of one library, through nm (its dynamic ones for a shared library).
void read_with_nm(const ProtectedLibrary& library, int index, ProtectedSymbols& into) {
  std::vector<std::string> argv = {"nm", "-P", "-g", "--defined-only"};
  if (library.dynamic) argv.push_back("-D");
  argv.push_back(library.path);
  process::ProcessOptions options;
  options.search_path = true;
  options.time_limit_s = 120;
  const process::ProcessResult p = process::run(argv, options);
  if (!p.started() || p.status() != 0) {
    throw files::GraderError("the audit cannot list the symbols of " + library.description + " (" + library.path +
                             ") with nm: " + (p.started() ? p.output.substr(0, 500) : p.spawn_error) +
                             "; install binutils (it provides nm, objdump and addr2line)");
  }
  std::istringstream lines(p.output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string name, type;
    if (!(fields >> name >> type) || type.size() != 1 || name.back() == ':') continue;  // an archive member's heading
    const char t = type[0];
    // U: undefined; w, v: weak undefined; other lower-case letters: local (u: unique global, i: IFUNC).
    const bool local = std::islower(static_cast<unsigned char>(t)) && t != 'u' && t != 'i';
    if (t == 'U' || local) continue;
    const bool weak = t == 'W' || t == 'V' || t == 'u';
    into.definitions[std::string(unversioned(name))].push_back({index, weak});
  }
}

std::string cache_text(const ProtectedSymbols& symbols) {
  std::string text = std::string(kCacheFormat) + "\n";
  for (const ProtectedLibrary& l : symbols.libraries) {
    text += "L\t" + l.id + "\t" + (l.dynamic ? "1" : "0") + "\t" + l.path + "\t" + l.description + "\n";
  }
  for (const auto& [name, defs] : symbols.definitions) {
    for (const LibraryDefinition& d : defs) {
      text += "S\t" + std::to_string(d.library) + "\t" + (d.weak ? "w" : "s") + "\t" + name + "\n";
    }
  }
  return text + "E\t" + std::to_string(symbols.libraries.size()) + "\t" + std::to_string(symbols.definitions.size()) +
         "\n";
}

// The cache's copy, or nullptr when it is missing, damaged, cut short (its last line, E, counts
// the libraries and names) or of another format.
std::shared_ptr<ProtectedSymbols> read_cache(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return nullptr;
  std::string text;
  try {
    text = files::read_whole_file(file);
  } catch (const files::GraderError&) {
    return nullptr;
  }
  std::istringstream lines(text);
  std::string line;
  if (!std::getline(lines, line) || line != kCacheFormat) return nullptr;
  auto symbols = std::make_shared<ProtectedSymbols>();
  bool ended = false;
  while (std::getline(lines, line)) {
    if (ended) return nullptr;
    std::vector<std::string> f;
    for (size_t start = 0;;) {
      const size_t tab = line.find('\t', start);
      f.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    if (f[0] == "L" && f.size() == 5) {
      symbols->libraries.push_back({f[1], f[4], f[3], f[2] == "1"});
    } else if (f[0] == "S" && f.size() == 4) {
      const int library = std::atoi(f[1].c_str());
      if (library < 0 || static_cast<size_t>(library) >= symbols->libraries.size()) return nullptr;
      symbols->definitions[f[3]].push_back({library, f[2] == "w"});
    } else if (f[0] == "E" && f.size() == 3) {
      if (f[1] != std::to_string(symbols->libraries.size()) || f[2] != std::to_string(symbols->definitions.size())) {
        return nullptr;
      }
      ended = true;
    } else {
      return nullptr;
    }
  }
  return ended ? symbols : nullptr;
}
}  // namespace

const std::vector<LibraryDefinition>* ProtectedSymbols::find(std::string_view name) const {
  const auto it = definitions.find(std::string(unversioned(name)));
  return it == definitions.end() ? nullptr : &it->second;
}

bool ProtectedSymbols::defined_in(std::string_view name, std::string_view library_id) const {
  if (const auto* defs = find(name)) {
    for (const LibraryDefinition& d : *defs) {
      if (libraries[d.library].id == library_id) return true;
    }
  }
  return false;
}

std::vector<ProtectedLibrary> protected_libraries(toolchain::Backend backend) {
  std::vector<ProtectedLibrary> libraries;
  if (backend == toolchain::Backend::emu) {
    libraries.push_back({"harness", "the grader's harness", toolchain::harness_emu_library(), false});
    for (const std::string& path : toolchain::emulator_runtime_libraries()) {
      libraries.push_back({"emulator", "the emulator's runtime", path, false});
    }
  } else {
    // gpulab links every GPU program with the static runtime: without its symbols the audit could
    // not see a submission that redefines the runtime's timer, so it refuses instead.
    const std::string cudart = toolchain::cuda_static_runtime();
    if (cudart.empty()) {
      throw files::GraderError("the audit cannot find the CUDA runtime's static library (libcudart_static.a) in '" +
                               toolchain::cuda_library_dir() + "', the library folder of " + toolchain::nvcc_path() +
                               ": the cuda backend links every program with it; check the CUDA "
                               "installation");
    }
    libraries.push_back({"cudart", "the CUDA runtime", cudart, false});
  }
  const std::vector<ProtectedLibrary> system = system_libraries();
  libraries.insert(libraries.end(), system.begin(), system.end());
  for (const ProtectedLibrary& l : libraries) {
    std::error_code ec;
    if (!fs::is_regular_file(l.path, ec)) {
      throw files::GraderError("the audit cannot find " + l.description + " at " + l.path +
                               ": rebuild gpulab (cmake --build build) or check the installation");
    }
  }
  return libraries;
}

std::shared_ptr<const ProtectedSymbols> protected_symbols(toolchain::Backend backend) {
  static std::mutex mutex;
  static std::map<fs::path, std::shared_ptr<const ProtectedSymbols>> loaded;  // by the cache's file
  const std::vector<ProtectedLibrary> libraries = protected_libraries(backend);
  toolchain::ContentHash hash;
  hash.add(kCacheFormat);
  for (const ProtectedLibrary& l : libraries) hash.add(l.id).add(stamp(l.path)).add(l.dynamic ? "dynamic" : "static");
  const std::string key = hash.hex();

  const fs::path file = toolchain::cache_directory() / "audit" / ("protected-" + key + ".tsv");
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto it = loaded.find(file); it != loaded.end()) return it->second;
  std::shared_ptr<ProtectedSymbols> symbols = read_cache(file);
  if (symbols && !missing_anchor(*symbols, libraries).empty()) symbols = nullptr;
  if (!symbols) {
    // Read with nm, and once more if a known name is missing (a listing cut short is never used).
    for (int attempt = 0; attempt < 2 && (!symbols || !missing_anchor(*symbols, libraries).empty()); ++attempt) {
      symbols = std::make_shared<ProtectedSymbols>();
      symbols->libraries = libraries;
      for (size_t i = 0; i < libraries.size(); ++i) read_with_nm(libraries[i], static_cast<int>(i), *symbols);
    }
    if (const std::string missing = missing_anchor(*symbols, libraries); !missing.empty()) {
      throw files::GraderError("the audit read the symbols of the libraries a program is linked with, but " + missing +
                               " is not among them: nm did not list what the library defines, so the audit cannot "
                               "check that a submission leaves the runtime's and the system's functions alone; "
                               "check binutils' nm and that library's file");
    }
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    files::write_file_atomically(file, cache_text(*symbols));
  }
  loaded[file] = symbols;
  return symbols;
}

}  // namespace gpulab::audit
