// How a program that runs a lab's cases is built: the submission (or the
// reference) + the harness + the per-lab binding generated from lab.json, for
// either backend. The grader and `gpulab bench` build the same way.
#pragma once
#include <string>

#include "lab/lab_spec.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::grade {

toolchain::BuildOptions harness_build_options(const LabSpec& lab, toolchain::Backend backend, bool use_cache,
                                              const std::string& cuda_arch = "sm_90");
std::string write_binding(const LabSpec& lab);  // the generated binding's file, in the cache (by content hash)

}  // namespace gpulab::grade
