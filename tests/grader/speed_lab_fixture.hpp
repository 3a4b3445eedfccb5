// The made-up lab "unit_speed" (out = 3 * in, speed scored) that the speed and
// untrusted-report tests grade on the emulator: its lab.json, a reference and a
// checker, and a GPULAB_HOME holding them with generated datasets.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "grade/grading.hpp"
#include "grader_test_support.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab_test {

nlohmann::json speed_lab_json();
gpulab::LabSpec speed_lab();

extern const char* const kKernel;     // __global__ thrice(in, out, n): out[i] = 3 * in[i]
extern const std::string kReference;  // the lab's reference: one launch of thrice
extern const char* const kChecker;    // another correct implementation, the lab's checker

// GPULAB_HOME for the lab: grader/ linked, public datasets generated, the reference and checker written.
struct SpeedHome {
  TempDir home;
  TempDir cache;
  explicit SpeedHome(bool with_reference = true, bool with_checker = true);
  // Grades `source` (written as student.cu) with GPULAB_HOME and GPULAB_CACHE set to these folders.
  gpulab::grade::GradeResult grade(const std::string& source, gpulab::grade::PerformanceMode mode);
};

}  // namespace gpulab_test
