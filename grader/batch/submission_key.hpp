// The key that decides whether a submission needs grading again: a hash of
// what the student handed in, the lab's version, the backend, the grader's
// version and the options that change the result (large cases, hidden cases
// and which secret made them, the parts graded).
#pragma once
#include <string>

#include "grade/grading.hpp"

namespace gpulab::batch {

std::string grader_version();  // the project version this gpulab was built as
// "" when no hidden cases will be graded; else a short hash of the secret and the lab (not the secret).
std::string hidden_seed_fingerprint(const LabSpec& lab, const grade::GradeOptions& o);
std::string submission_key(const std::string& content_hash, const LabSpec& lab, const grade::GradeOptions& o);

}  // namespace gpulab::batch
