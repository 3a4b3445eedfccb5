// Which object file (the program or a shared library) holds a code address, and the address a
// symbolizer takes for it in that file: for a position-independent object the offset from where
// it was loaded, plus (Mach-O) the address its __TEXT segment asks for.
#pragma once
#include <cstdint>
#include <string>

namespace gpulab::platform {

struct CodeLocation {
  std::string object;            // "" when no loaded object holds the address
  uintptr_t object_address = 0;  // what `addr2line -e object` / `llvm-symbolizer --obj object` take
};

CodeLocation locate_code(uintptr_t address);

}  // namespace gpulab::platform
