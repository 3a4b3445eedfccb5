// What an emulator build says when a program includes a header of the CUDA toolkit's libraries
// that the emulator does not provide (mma.h, curand.h, thrust/..., cublas_v2.h): the
// compiler's "No such file or directory" alone reads like a broken installation, so the build's
// output gains a sentence that names the library and what to do instead.
#pragma once
#include <string>

namespace gpulab::toolchain {

// For a failed emulator compile's output: one line per missing header of the CUDA toolkit
// (each named once), or "" when the output names none.
std::string toolkit_header_hints(const std::string& compiler_output);

}  // namespace gpulab::toolchain
