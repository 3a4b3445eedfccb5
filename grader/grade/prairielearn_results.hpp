// PrairieLearn's external-grader results.json (docs/prairielearn.md): `score`
// as a fraction of the maximum, one test per dataset case with points and
// max_points, and `gradable: false` with `format_errors` (what to fix) for a
// submission that did not compile or held nothing to grade, which PrairieLearn
// then neither scores nor counts as an attempt.
#pragma once
#include <nlohmann/json.hpp>

#include "grading.hpp"

namespace gpulab::grade {

nlohmann::json prairielearn_results(const GradeResult& g);

}  // namespace gpulab::grade
