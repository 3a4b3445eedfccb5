// Compiling a program's C files for the emulator build.
#include "toolchain/c_sources.hpp"

#include "build_config.hpp"

namespace gpulab::toolchain {

bool is_c_source(const std::filesystem::path& source) { return source.extension() == ".c"; }

CompileJob c_object_job(const std::filesystem::path& source, const std::filesystem::path& object,
                        const std::vector<std::string>& include_flags, const std::vector<std::string>& defines) {
  // Host code only (a kernel cannot be in a C file), so the race-check build leaves it uninstrumented.
  CompileJob job;
  job.argv = {GPULAB_CXX_COMPILER, "-x", "c", "-O2", "-gdwarf-4", "-pthread", GPULAB_EMU_PORTABLE_ARGS};
  job.argv.insert(job.argv.end(), include_flags.begin(), include_flags.end());
  for (const std::string& d : defines) job.argv.push_back("-D" + d);
  job.argv.insert(job.argv.end(), {"-c", source.string(), "-o", object.string()});
  job.build_dir = object.parent_path();
  job.reads = {source};
  return job;
}

}  // namespace gpulab::toolchain
