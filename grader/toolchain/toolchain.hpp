// Building a CUDA program for a backend: `emu` (rewrite + g++ against the
// emulator) or `cuda` (nvcc for a real GPU). Outputs are cached by a hash of
// the sources and the headers they include, the options and the toolchain (the
// compiler, the emulator build and its source rewriter), looked up before any
// rewriting, so rebuilding an unchanged submission costs nothing.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "process/run.hpp"

namespace gpulab::toolchain {

enum class Backend { emu, cuda };
Backend parse_backend(const std::string& name);  // "emu" | "cuda"; throws std::invalid_argument
const char* backend_name(Backend b);
bool cuda_backend_available();  // built with nvcc support and nvcc is present
bool race_check_available();    // this build has the emulator's checking runtime

// One compiler run, with what it touches, so that a caller can run it in a sandbox.
struct CompileJob {
  std::vector<std::string> argv;
  std::filesystem::path build_dir;           // the only folder the compiler writes
  std::vector<std::filesystem::path> reads;  // the files and folders it reads, besides the system's
};
using CompileRunner = std::function<process::ProcessResult(const CompileJob&)>;

struct BuildOptions {
  Backend backend = Backend::emu;
  bool race_check = false;          // emu only: the checking build (races, exact out-of-bounds reads)
  std::string cuda_arch = "sm_90";  // cuda only
  // Compiled and linked with the main source: .cu as CUDA (rewritten for the emulator), .c as C,
  // anything else (.cpp, .cc, .cxx) as host C++.
  std::vector<std::filesystem::path> extra_sources;
  std::vector<std::string> include_dirs;  // -I, in this order, before each source's own folder
  std::vector<std::string> defines;       // NAME or NAME=VALUE: -D for every source
  std::vector<std::string> link_inputs;   // prebuilt archives/objects linked before the emulator runtime
  // Archives linked whole (every member, after link_inputs), so that a program defining one of
  // their symbols fails to link instead of silently replacing it.
  std::vector<std::string> whole_archives;
  std::vector<std::string> link_flags;  // passed to the compiler driver when linking (e.g. -Xlinker ...)
  bool use_cache = true;
  CompileRunner run_compiler;  // unset: the compiler runs directly
  // cuda only: build a shared library (for dlopen) instead of a program, and the
  // libraries to link by name (e.g. "cublas", "dl"). Either one links the CUDA
  // runtime dynamically, so a program and the libraries it loads share one runtime.
  bool shared_library = false;
  std::vector<std::string> libraries;
  // Compile only: one relocatable object (`object.o`) from the source alone, for another
  // build's link_inputs (extra_sources, link_inputs and link_flags are not used); with
  // race_check, the checking build's object (the link that uses it takes race_check too).
  bool object_file = false;
};

struct BuildResult {
  bool ok = false;
  bool cached = false;
  std::filesystem::path executable;
  std::string compiler_output;  // what the compiler printed, already pointing at the student's lines
  std::string command;          // the compile command, for "how do I reproduce this"
};

// Throws std::runtime_error for a missing source file or an unusable option, and
// files::GraderError for problems of the installation or the machine (the compiler
// cannot be started, the cache cannot be written).
BuildResult build_program(const std::filesystem::path& source, const BuildOptions& options);
// How many .cu sources build_program has rewritten for the emulator in this process (a cache
// hit rewrites none).
size_t emulator_rewrites();

std::filesystem::path cache_directory();  // $GPULAB_CACHE, else ~/.cache/gpulab
std::filesystem::path project_root();     // $GPULAB_HOME, else the source tree gpulab was built from
// Removes what a killed gpulab (SIGKILL) left in the build cache: unfinished build and dataset
// folders and partial files of processes that no longer run. Never fails.
void sweep_cache_leftovers();
// Throws files::GraderError when project_root() is not a gpulab installation (a GPULAB_HOME
// without grader/ or assignments/): a setup mistake must stop grading, not score everyone 0.
void check_installation();
std::string harness_emu_library();  // the grader's harness, prebuilt for the emulator
std::string nvcc_path();            // the nvcc this gpulab was built with; empty without CUDA
std::string cuda_library_dir();     // its toolkit's runtime libraries (libcudart_static.a); empty without CUDA
std::string emu_include_dir();      // the emulator's CUDA headers (gpulab/emu/...)

}  // namespace gpulab::toolchain
