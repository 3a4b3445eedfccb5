// The program that maps code addresses to functions and source lines, in addr2line's output
// format: binutils' addr2line where it is installed (Linux), else llvm-symbolizer in GNU style
// (macOS, where addr2line cannot read Mach-O debug information, or Linux without binutils).
// GPULAB_SYMBOLIZER names one of them (or a path to one) to use instead.
#pragma once
#include <string>
#include <vector>

namespace gpulab::platform {

// The command line, up to the addresses, that prints for each address "0x..." and then
// (function, file:line) pairs from the innermost inlined frame out. Empty when neither program
// is found; `tried` then says what was looked for.
std::vector<std::string> symbolizer_command(const std::string& object, std::string& tried);

}  // namespace gpulab::platform
