// A failure of the grader itself, not of the submission: the installation
// (GPULAB_HOME, a missing tool), the machine (fork, pipes, a full or
// read-only disk) or the sandbox. It is never recorded as a student's score:
// `gpulab grade` exits with its own status and says what to fix, and a batch
// marks the student `grader_error` and grades them again on the next run
// (DESIGN.md, "Isolation").
#pragma once
#include <stdexcept>
#include <string>

namespace gpulab::files {

struct GraderError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace gpulab::files
