// Turns the code addresses of an emulator profile into source lines with
// addr2line (binutils, which gcc needs anyway): of the chain of inlined
// frames at an address, the innermost one in the program's own files, so
// that an atomicAdd or a launch wrapper in the emulator's headers is shown
// at the student's line that called it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpulab::profile {

struct SourceLine {
  std::string file;      // as the compiler saw it (the #line of the rewritten source)
  int line = 0;          // 0 when unknown
  std::string function;  // demangled, e.g. "coalesced(float const*, float*)"
};

// Throws std::runtime_error when addr2line cannot be run; addresses it cannot place map to line 0.
std::map<uintptr_t, SourceLine> source_lines(const std::string& object, const std::vector<uintptr_t>& addresses);

// "f.cu" for "/course/alice/f.cu": how reports name a file.
std::string base_name(const std::string& path);

// Frames in these folders are the emulator's or the system's, never the program's.
bool is_library_file(const std::string& file);

}  // namespace gpulab::profile
