// What an emulator build says when a program uses part of CUDA that the emulator does not
// provide: a header of the toolkit's libraries (mma.h, curand.h, thrust/..., cublas_v2.h) or a
// runtime feature it lacks (textures and surfaces, conditional graph nodes). The compiler's "No
// such file or directory" or "was not declared" alone reads like a mistake in the program or a
// broken installation, so the build's output gains a sentence that names what is missing and
// what to do instead.
#pragma once
#include <string>

namespace gpulab::toolchain {

// For a failed emulator compile's output: one line per missing header or feature (each named
// once), or "" when the output names none.
std::string missing_cuda_feature_hints(const std::string& compiler_output);

}  // namespace gpulab::toolchain
