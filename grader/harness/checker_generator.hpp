// Generates the translation unit of a lab's checker (lab.json's "checker"):
// the checker's .cu text wrapped in an anonymous namespace, so that none of
// its kernels, helpers or host functions can collide with a submission's or
// be called by one, with its #include lines hoisted above the namespace and a
// static constructor that registers its part table with the harness
// (checker_registry.hpp). Compiled once per lab and backend into an object
// that every harness program of the lab links.
#pragma once
#include <filesystem>
#include <string>

#include "lab/lab_spec.hpp"

namespace gpulab::harness {

// `checker_text` is the content of `checker_path` (named in #line directives and messages).
std::string generate_checker_source(const LabSpec& lab, const std::string& checker_text,
                                    const std::filesystem::path& checker_path);

}  // namespace gpulab::harness
