// What a submission's object must not define: the symbols of the libraries its program is linked
// with (the grader's harness, the emulator's runtime or the CUDA runtime, libc, libm, libstdc++,
// libgcc_s, the dynamic loader). Read with binutils' nm once per set of libraries and kept in
// the cache (GPULAB_CACHE/audit/, named by the libraries' paths, sizes and times), so an audit
// reads one file instead of running nm.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "toolchain/toolchain.hpp"

namespace gpulab::audit {

// A library a program is linked with, as a sentence names it and the allowlist refers to it.
struct ProtectedLibrary {
  std::string id;           // "harness", "emulator", "cudart", "libc", "libm", "libstdc++", "libgcc_s", "ld.so"
  std::string description;  // "the grader's harness", "the C library", ...
  std::string path;
  bool dynamic = false;  // a shared library: its dynamic symbols count
};

struct LibraryDefinition {
  int library = 0;    // index in ProtectedSymbols::libraries
  bool weak = false;  // weak or unique (an inline function's or template's copy)
};

class ProtectedSymbols {
 public:
  std::vector<ProtectedLibrary> libraries;
  std::unordered_map<std::string, std::vector<LibraryDefinition>> definitions;  // unversioned, mangled name

  const std::vector<LibraryDefinition>* find(std::string_view name) const;
  bool defined_in(std::string_view name, std::string_view library_id) const;
};

// The libraries a program of `backend` is linked with (those present on this machine).
std::vector<ProtectedLibrary> protected_libraries(toolchain::Backend backend);
// Their symbols: from memory, else the cache's file, else nm (and written to the cache).
// Throws files::GraderError when nm cannot be run or a library cannot be read.
std::shared_ptr<const ProtectedSymbols> protected_symbols(toolchain::Backend backend);

}  // namespace gpulab::audit
