// The emulator's CUDA header (gpulab/emu/cuda_emulation.hpp), which every emulator build of a .cu
// source includes first, precompiled once per set of compile options (beside gpulab's build), so
// that a compile parses only the submission (about 0.7 s of CPU less per compile with g++ 12: the
// header is some 88,000 lines with the standard library). The compile finds it through an -I
// folder placed before the emulator's include folder; where the compiler cannot use it (another
// compiler, a macro of the command line that the header reads, a damaged file) it reads the
// header itself, as it would without one, so a precompiled header changes the time of a build,
// never its result. g++ only: clang's precompiled headers work differently and are not made.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "toolchain/toolchain.hpp"

namespace gpulab::toolchain {

// Whether this build of gpulab makes precompiled headers for its emulator builds (g++ compiles
// them; GPULAB_NO_PRECOMPILED_HEADER=1 in the environment turns them off).
bool precompiled_header_enabled();

// Where the precompiled headers are kept: beside the emulator's library in gpulab's build folder
// (shared by every grading with this gpulab), or in the build cache where that cannot be written.
std::filesystem::path precompiled_headers_root();

// The folder (under precompiled_headers_root) that holds the header precompiled with `options_before_header`,
// the compile's options up to the header's include (compiler, flags, macros): the same path for
// the same options, the emulator's headers and the compiler, whether or not it was made yet.
std::filesystem::path precompiled_header_folder(const std::vector<std::string>& options_before_header);

// Makes that folder's precompiled header if it is not there yet, with `run_compiler` where given
// (the compile sandbox), else directly. False when it could not be made: the builds then read
// the header itself, which is only slower.
bool ensure_precompiled_header(const std::vector<std::string>& options_before_header,
                               const CompileRunner& run_compiler);

}  // namespace gpulab::toolchain
