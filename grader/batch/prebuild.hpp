// Compiling a submission ahead of grading, the way grade_submission builds it
// (the same harness binding, sources and options, so the same cache entries),
// so that a class compiles in parallel while GPU runs stay one at a time, and
// so that the compile time of each submission can be reported on its own.
// Both build through grade::build_submission; the test "prebuilt submissions
// are cache hits" watches that they stay the same.
#pragma once
#include <filesystem>
#include <string>

#include "grade/grading.hpp"

namespace gpulab::batch {

struct PrebuildResult {
  bool ok = false;
  double seconds = 0;
  std::string compiler_output;
};

// Writes the lab's harness binding into the cache (atomically), so parallel gradings never see half a file.
void prepare_lab_binding(const LabSpec& lab);
PrebuildResult prebuild_submission(const LabSpec& lab, const std::filesystem::path& source,
                                   const grade::GradeOptions& o);

}  // namespace gpulab::batch
