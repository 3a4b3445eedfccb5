// prebuild_submission: mirrors the build step of grader/grade/grading.cpp.
#include "prebuild.hpp"

#include <chrono>

#include "atomic_file.hpp"
#include "harness/binding_generator.hpp"
#include "toolchain/content_hash.hpp"

namespace gpulab::batch {
namespace fs = std::filesystem;

namespace {
fs::path binding_file(const LabSpec& lab, std::string* text_out = nullptr) {
  const std::string text = harness::generate_binding(lab);
  if (text_out) *text_out = text;
  return toolchain::cache_directory() / "bindings" / (lab.lab + "-" + toolchain::ContentHash().add(text).hex() + ".cpp");
}
}  // namespace

void prepare_lab_binding(const LabSpec& lab) {
  std::string text;
  const fs::path file = binding_file(lab, &text);
  fs::create_directories(file.parent_path());
  if (!fs::exists(file)) write_file_atomically(file, text);
}

PrebuildResult prebuild_submission(const LabSpec& lab, const fs::path& source, const grade::GradeOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  prepare_lab_binding(lab);
  toolchain::BuildOptions b;
  b.backend = o.backend;
  b.use_cache = o.use_cache;
  const fs::path grader_dir = toolchain::project_root() / "grader";
  b.include_dirs = {grader_dir.string()};
  b.extra_sources = {binding_file(lab)};
  if (o.backend == toolchain::Backend::emu) {
    b.link_inputs = {toolchain::harness_emu_library()};
  } else {
    for (const char* f : {"harness/harness_main.cpp", "data/npy_io.cpp", "data/nd_array.cpp"}) {
      b.extra_sources.push_back(grader_dir / f);
    }
  }
  PrebuildResult r;
  const toolchain::BuildResult built = toolchain::build_program(source, b);
  r.ok = built.ok;
  r.compiler_output = built.compiler_output;
  if (built.ok && o.backend == toolchain::Backend::emu && o.race_check && toolchain::race_check_available()) {
    toolchain::BuildOptions rb = b;
    rb.race_check = true;
    toolchain::build_program(source, rb);  // a failure here is the grader's to report, as it is in grading
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace gpulab::batch
