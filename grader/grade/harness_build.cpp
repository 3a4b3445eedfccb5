// Build options of harness programs (see harness_build.hpp).
#include "files/atomic_file.hpp"
#include "grade/harness_build.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "harness/binding_generator.hpp"
#include "harness/checker_generator.hpp"
#include "harness/copy_entry_points.hpp"
#include "toolchain/content_hash.hpp"
#include "toolchain/state_sections.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

namespace {
// A generated source in the cache, named by its content; written aside and renamed into
// place, so graders running in parallel never compile half a file.
fs::path write_generated(const std::string& text, const std::string& folder, const std::string& name,
                         const std::string& extension) {
  const fs::path dir = toolchain::cache_directory() / folder;
  fs::create_directories(dir);
  const fs::path file = dir / (name + "-" + toolchain::ContentHash().add(text).hex() + extension);
  if (!fs::exists(file)) files::write_file_atomically(file, text);
  return file;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

std::string write_binding(const LabSpec& lab) {
  return write_generated(harness::generate_binding(lab), "bindings", lab.lab, ".cpp").string();
}

fs::path checker_object(const LabSpec& lab, toolchain::Backend backend, bool use_cache, const std::string& cuda_arch) {
  if (lab.checker_file.empty()) return {};
  const fs::path source = toolchain::project_root() / lab.checker_file;
  if (!fs::is_regular_file(source)) return {};  // not shipped here (a student kit)
  const fs::path wrapper =
      write_generated(harness::generate_checker_source(lab, read_text(source), source), "checkers", lab.lab, ".cu");
  toolchain::BuildOptions b;
  b.backend = backend;
  b.cuda_arch = cuda_arch;
  b.use_cache = use_cache;
  b.object_file = true;
  b.include_dirs = {(toolchain::project_root() / "grader").string()};
  const toolchain::BuildResult built = toolchain::build_program(wrapper, b);
  if (!built.ok) {
    throw std::runtime_error("the checker of lab '" + lab.lab + "' (" + source.string() +
                             ", lab.json's \"checker\") "
                             "does not compile for the " +
                             toolchain::backend_name(backend) +
                             " backend; fix it or "
                             "the installation:\n" +
                             built.compiler_output);
  }
  return built.executable;
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
  if (const fs::path checker = checker_object(lab, backend, use_cache, cuda_arch); !checker.empty()) {
    b.link_inputs.push_back(checker.string());
  }
  if (backend == toolchain::Backend::emu) {
    // Whole, so that a submission defining a harness symbol (say, the comparison of timed
    // outputs) fails to link instead of replacing it.
    b.whole_archives = {toolchain::harness_emu_library()};
    return b;
  }
  for (const char* f :
       {"harness/harness_main.cpp", "harness/device_buffers.cpp", "harness/timed_runs.cpp", "harness/timed_case.cpp",
        "harness/checker_registry.cpp", "harness/device_checks.cu", "harness/fresh_entropy.cpp",
        "harness/launch_counter_cuda.cpp", "harness/transfer_log.cpp", "harness/transfer_hooks_cuda.cpp",
        "harness/graph_copies_cuda.cpp", "harness/submission_state.cpp", "harness/device_variables_cuda.cpp",
        "harness/leftover_allocations_cuda.cpp", "harness/harness_case.cpp", "harness/process_hardening.cpp",
        "data/npy_io.cpp", "data/nd_array.cpp", "platform/large_buffers.cpp"}) {
    b.extra_sources.push_back(grader_dir / f);
  }
  // Every launch, copy, allocation and graph entry point goes through the harness first
  // (harness/copy_entry_points.hpp: the one list of them).
  const auto wrap = [&b](const auto& names) {
    for (std::string_view entry : names)
      b.link_flags.insert(b.link_flags.end(), {"-Xlinker", "--wrap=" + std::string(entry)});
  };
  wrap(harness::kLaunchEntryPoints);
  wrap(harness::kCopyEntryPoints);
  wrap(harness::kAllocationEntryPoints);
  wrap(harness::kGraphEntryPoints);
  wrap(harness::kRegistrationEntryPoints);
  return b;
}

toolchain::BuildOptions submission_object_options(toolchain::Backend backend, bool use_cache,
                                                  const std::string& cuda_arch) {
  toolchain::BuildOptions b;
  b.backend = backend;
  b.cuda_arch = cuda_arch;
  b.use_cache = use_cache;
  b.object_file = true;
  return b;
}

namespace {
// One of the harness's own sources (the binding generated from lab.json, or on the cuda backend
// harness/*.cpp, device_checks.cu, data/*.cpp) compiled alone to an object, cached by content: it
// is grader code, the same for every submission, so a link need not compile it again (on the
// cuda backend nvcc took about 27 s of one CPU to compile them all at every link).
fs::path harness_object(const LabSpec& lab, const fs::path& source, toolchain::Backend backend, bool use_cache,
                        bool race, const std::string& cuda_arch) {
  toolchain::BuildOptions b;
  b.backend = backend;
  b.cuda_arch = cuda_arch;
  b.use_cache = use_cache;
  b.race_check = race;
  b.object_file = true;
  b.include_dirs = {(toolchain::project_root() / "grader").string()};
  const toolchain::BuildResult built = toolchain::build_program(source, b);
  if (!built.ok) {
    throw std::runtime_error("the harness's " + source.filename().string() + " (for lab '" + lab.lab +
                             "') does not compile for the " + toolchain::backend_name(backend) +
                             " backend; fix lab.json or the installation:\n" + built.compiler_output);
  }
  return built.executable;
}
}  // namespace

HarnessLink harness_link(const LabSpec& lab, toolchain::Backend backend, bool use_cache, const std::string& cuda_arch,
                         const fs::path& submission_object, bool race) {
  HarnessLink link;
  link.options = harness_build_options(lab, backend, use_cache, cuda_arch);
  link.options.race_check = race;
  // The binding's object as the main source, and on the cuda backend the harness's other sources'
  // objects, each compiled once (the toolchain passes an object given as a source to the compiler
  // driver as it is): the link then only links.
  link.main_source = harness_object(lab, link.options.extra_sources.front(), backend, use_cache, race, cuda_arch);
  link.options.extra_sources.erase(link.options.extra_sources.begin());
  if (backend == toolchain::Backend::cuda) {
    for (fs::path& source : link.options.extra_sources) {
      source = harness_object(lab, source, backend, use_cache, race, cuda_arch);
    }
  }
  // Its writable data in sections of their own, which the harness watches between cases
  // (harness/submission_state.hpp).
  link.options.link_inputs.push_back(toolchain::object_with_state_sections(submission_object).string());
  return link;
}

}  // namespace gpulab::grade
