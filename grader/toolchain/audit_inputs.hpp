// What the audit of a submission's object (grader/audit/) reads from the toolchain: the libraries
// a program built for a backend is linked with, by path (what the audit protects from being
// replaced), and the rewritten source an emulator build compiled.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace gpulab::toolchain {

// The emulator's runtime as a program built for it links it (libgpulab_emu and what it needs),
// then the checking runtime where this build has one.
std::vector<std::string> emulator_runtime_libraries();
// libcudart_static.a in the toolkit of the nvcc this gpulab was built with (cuda_library_dir()); empty
// without CUDA or when it is not there.
std::string cuda_static_runtime();
// The C++ compiler programs are built with (g++ for the emulator, nvcc's host compiler).
std::string host_compiler();
// The rewritten source an emulator build compiled `source` (its main source) from, beside the
// build's artifact (`object.o`, `program`) in its cache folder (defined in toolchain.cpp, beside
// the build that names it).
std::filesystem::path emulator_rewritten_source(const std::filesystem::path& artifact,
                                                const std::filesystem::path& source);

}  // namespace gpulab::toolchain
