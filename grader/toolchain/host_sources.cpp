// Compiling a program's host sources for the emulator build (see host_sources.hpp).
#include "toolchain/host_sources.hpp"

#include "build_config.hpp"
#include "rewriter/cuda_rewriter.hpp"

namespace gpulab::toolchain {

bool is_host_source(const std::filesystem::path& source) {
  const std::string ext = source.extension().string();
  return ext == ".c" || ext == ".cpp" || ext == ".cc" || ext == ".cxx";
}

bool is_c_source(const std::filesystem::path& source) { return source.extension() == ".c"; }

std::vector<std::string> nvcc_macros(const std::string& cuda_arch) {
  return {"-D__CUDA_ARCH_LIST__=" + std::to_string(rewriter::cuda_arch_value(cuda_arch)),
          "-D__NVCC__",
          "-D__CUDACC_VER_MAJOR__=13",
          "-D__CUDACC_VER_MINOR__=0",
          "-D__CUDACC_VER_BUILD__=88",
          "-D__CUDA_API_VER_MAJOR__=13",
          "-D__CUDA_API_VER_MINOR__=0",
          "-D__NVCC_DIAG_PRAGMA_SUPPORT__=1",
          "-D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1"};
}

CompileJob host_object_job(const std::filesystem::path& source, const std::filesystem::path& object,
                           const std::vector<std::string>& include_flags, const std::vector<std::string>& defines,
                           const std::string& cuda_arch) {
  // Host code only (a kernel cannot be in a host file), so the race-check build leaves it uninstrumented.
  CompileJob job;
  job.argv = {GPULAB_CXX_COMPILER};
  if (is_c_source(source)) {
    job.argv.insert(job.argv.end(), {"-x", "c"});
  } else {
    job.argv.insert(job.argv.end(), {"-x", "c++", "-std=c++20"});
  }
  // GPULAB_EMU_PORTABLE_ARGS: the same results on every platform and compiler (signed char, no FP
  // contraction), as the .cu files get (grader/emu/CMakeLists.txt).
  job.argv.insert(job.argv.end(), {"-O2", "-gdwarf-4", "-pthread", GPULAB_EMU_PORTABLE_ARGS});
  const std::vector<std::string> macros = nvcc_macros(cuda_arch);
  job.argv.insert(job.argv.end(), macros.begin(), macros.end());
  // CUDA's include folder, as nvcc passes it: here the emulator's, first (as in the .cu compile), so
  // that a copy of CUDA's own headers among the program's files does not replace it.
  job.argv.insert(job.argv.end(), {"-I", GPULAB_EMU_INCLUDE_DIR});
  job.argv.insert(job.argv.end(), include_flags.begin(), include_flags.end());
  for (const std::string& d : defines) job.argv.push_back("-D" + d);
  job.argv.insert(job.argv.end(), {"-c", source.string(), "-o", object.string()});
  job.build_dir = object.parent_path();
  job.reads = {source, GPULAB_EMU_INCLUDE_DIR};
  return job;
}

}  // namespace gpulab::toolchain
