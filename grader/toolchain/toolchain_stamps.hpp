// Stamps of the files a build depends on besides its sources (path, modification time, size), for
// the keys of the build cache and of the precompiled emulator header: a rebuilt emulator, a changed
// header or another compiler gives a new key, so nothing made from an older one is used.
#pragma once
#include <string>

namespace gpulab::toolchain {

// "PATH@MTIME:SIZE" of one file (zeros where it does not exist).
std::string file_stamp(const char* path);

// The stamps of every file under the emulator's include folder (cuda_runtime.h, cuda_pipeline.h,
// ...), which every emulator build compiles: computed once per process.
const std::string& emulator_headers_stamp();

}  // namespace gpulab::toolchain
