// Gradescope's `extra_data` (kept with a result, never shown to students): the
// unrounded detail behind the rounded points of results.json, for the whole
// submission and for each dataset case, so instructors' scripts can re-add
// scores exactly and tell cases apart by id, size and time.
#pragma once
#include <nlohmann/json.hpp>

#include "grading.hpp"

namespace gpulab::grade {

// One dataset case: part, case id, family, hidden, sizes, exact score and max_score, status
// ("passed", "failed", "not_run"), seconds when it ran, and the limit that stopped it, if one did.
nlohmann::json case_extra_data(const CaseResult& c);
// A part that was not graded case by case (the submission did not compile, or had nothing to
// grade): its exact max_score and why (status "did_not_compile" or "not_graded").
nlohmann::json ungraded_part_extra_data(const PartResult& p, const std::string& status);
// The submission: lab, lab version, backend, compiled, exact score and max_score, seconds, and
// each part's exact score and max_score.
nlohmann::json submission_extra_data(const GradeResult& g);

}  // namespace gpulab::grade
