// How one build's compiler is called (toolchain.cpp's internal seam): the sources it reads, the
// names of what it writes, and the command line of the emulator's compile (g++ or clang++ on the
// rewritten sources, then the emulator's link) or of nvcc's, with the flags and why.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "local_headers.hpp"
#include "toolchain.hpp"

namespace gpulab::toolchain {

// The sources of one build, the main one first, each read once, with the program's own headers.
struct BuildSources {
  std::vector<std::filesystem::path> paths;
  std::vector<std::string> texts;
  std::vector<std::filesystem::path> folders;  // include folders in the compiler's order: -I, then each source's folder
  std::vector<LocalHeader> headers;            // what the sources include from those folders, recursively
};

// Plain -I options for the build's folders (the cache key's stand-in for the emulator's header
// copies, which depend only on the headers' text, hashed on their own).
std::vector<std::string> plain_include_flags(const BuildSources& s);
// Where an emulator build compiles host source number `i` (.c, .cpp, ...) to.
std::filesystem::path host_object_path(const std::filesystem::path& dir, size_t i, const std::filesystem::path& source);
// "object.o", "library.so" or "program".
std::string artifact_name(const BuildOptions& options);
// Where the emulator's rewrite of a .cu source is compiled from (in the copy of its own folder).
std::filesystem::path rewritten_path(const std::filesystem::path& dir, const std::filesystem::path& source);
// An emulator compile's options before the CUDA header it includes first (also those the header
// is precompiled with: precompiled_header.hpp).
std::vector<std::string> emulator_options_before_header(const BuildOptions& options);
// The compile command; on the emulator it compiles the rewritten .cu sources in `dir`.
// `include_flags`: the -I options (with the emulator's rewritten header copies first, where any).
std::vector<std::string> compile_command(const BuildSources& s, const BuildOptions& options,
                                         const std::filesystem::path& dir,
                                         const std::vector<std::string>& include_flags);

}  // namespace gpulab::toolchain
