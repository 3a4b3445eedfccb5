// How a program that runs a lab's cases is built: the submission (or the
// reference) + the harness + the per-lab binding generated from lab.json +
// the lab's checker object, for either backend. The grader and `gpulab bench`
// build the same way.
#pragma once
#include <filesystem>
#include <string>

#include "lab/lab_spec.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::grade {

// Builds the lab's checker object when needed (cached), so it can throw std::runtime_error
// when the lab's checker exists but does not compile (a fault of the installation, not of
// a submission).
toolchain::BuildOptions harness_build_options(const LabSpec& lab, toolchain::Backend backend, bool use_cache,
                                              const std::string& cuda_arch = "sm_90");
std::string write_binding(const LabSpec& lab);  // the generated binding's file, in the cache (by content hash)

// Grading's build of a submission, in two steps: the submission alone compiled to an object
// (audited before anything is linked with it), then the harness program linked around that
// object: build_program(main_source, options), the binding as the main source, the harness
// before the submission's object on the link line.
toolchain::BuildOptions submission_object_options(toolchain::Backend backend, bool use_cache,
                                                  const std::string& cuda_arch = "sm_90");
struct HarnessLink {
  std::filesystem::path main_source;
  toolchain::BuildOptions options;
};
HarnessLink harness_link(const LabSpec& lab, toolchain::Backend backend, bool use_cache, const std::string& cuda_arch,
                         const std::filesystem::path& submission_object);

// The lab's checker (lab.json "checker") compiled for `backend` into one object with internal
// linkage (harness/checker_generator.hpp), or an empty path when the lab names none or this
// installation does not ship it (a student kit).
std::filesystem::path checker_object(const LabSpec& lab, toolchain::Backend backend, bool use_cache,
                                     const std::string& cuda_arch);

}  // namespace gpulab::grade
