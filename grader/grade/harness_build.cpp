// Build options of harness programs (see harness_build.hpp).
#include "grade/harness_build.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "harness/binding_generator.hpp"
#include "toolchain/content_hash.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

std::string write_binding(const LabSpec& lab) {
  const std::string text = harness::generate_binding(lab);
  const fs::path dir = toolchain::cache_directory() / "bindings";
  fs::create_directories(dir);
  const fs::path file = dir / (lab.lab + "-" + toolchain::ContentHash().add(text).hex() + ".cpp");
  if (!fs::exists(file)) {
    // Written aside and renamed into place: graders running in parallel never compile half a file.
    const fs::path tmp = file.string() + ".tmp-" + std::to_string(getpid());
    std::ofstream(tmp) << text;
    fs::rename(tmp, file);
  }
  return file.string();
}

toolchain::BuildOptions harness_build_options(const LabSpec& lab, toolchain::Backend backend, bool use_cache,
                                              const std::string& cuda_arch) {
  toolchain::BuildOptions b;
  b.backend = backend;
  b.cuda_arch = cuda_arch;
  b.use_cache = use_cache;
  const fs::path grader_dir = toolchain::project_root() / "grader";
  b.include_dirs = {grader_dir.string()};
  b.extra_sources = {write_binding(lab)};
  if (backend == toolchain::Backend::emu) {
    b.link_inputs = {toolchain::harness_emu_library()};
    return b;
  }
  for (const char* f : {"harness/harness_main.cpp", "harness/device_buffers.cpp", "harness/timed_runs.cpp",
                        "harness/launch_counter_cuda.cpp", "data/npy_io.cpp", "data/nd_array.cpp"}) {
    b.extra_sources.push_back(grader_dir / f);
  }
  // Every CUDA launch entry point goes through launch_counter_cuda.cpp first.
  for (const char* entry : {"__cudaLaunchKernel", "__cudaLaunchKernel_ptsz", "cudaLaunchKernel", "cudaLaunchKernel_ptsz",
                            "cudaLaunchKernelExC", "cudaLaunchKernelExC_ptsz", "cudaLaunchCooperativeKernel",
                            "cudaLaunchCooperativeKernel_ptsz", "cudaGraphLaunch", "cudaGraphLaunch_ptsz"}) {
    b.link_flags.insert(b.link_flags.end(), {"-Xlinker", std::string("--wrap=") + entry});
  }
  return b;
}

}  // namespace gpulab::grade
