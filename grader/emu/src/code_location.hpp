// Where a code address of the running program is in its sources: "my_reduction.cu:42" through the
// project's symbolizer (platform/symbolizer.hpp: addr2line or llvm-symbolizer, innermost frame
// outside the system's and the emulator's headers), else "in reduce_sum_int(int const*, int*, int)"
// from the symbol table, else "". Slow (it runs a program): for reports, never on a hot path.
#pragma once
#include <cstdint>
#include <string>

namespace gpulab::emu {

std::string code_location(uintptr_t pc);
// Whether `pc` lies in the program's own file (not a shared library such as libc).
bool in_program(uintptr_t pc);

}  // namespace gpulab::emu
