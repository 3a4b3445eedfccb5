// The correctness cases of one part: every dataset case of the part, public
// before hidden and by number, each in its own child process (case_runner),
// with the stop policy for runs a limit stopped, and the profile's hints from
// the checking build; then the part's correctness score.
#pragma once
#include <filesystem>
#include <vector>

#include "data/dataset.hpp"
#include "grade/grading.hpp"
#include "grade/submission_build.hpp"
#include "grade/submission_runner.hpp"
#include "grade/trusted_program.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

// Fills pr.cases, pr.profile and pr.score (correctness only); true when every case passed.
// `trusted` checks a run that says the harness itself failed (trusted_program.hpp). `withheld`,
// when not empty, says why what the program reports of itself cannot be trusted (an audit
// finding): a case whose outputs are right then fails all the same, with that reason.
// Throws DatasetError when the datasets hold no case of the part.
bool run_part_cases(const LabSpec& lab, const PartSpec& part, const std::vector<Manifest>& manifests,
                    const SubmissionBuild& built, const std::filesystem::path& work, const SubmissionRunner& runner,
                    const GradeOptions& options, TrustedPrograms& trusted, const std::string& withheld, PartResult& pr);

}  // namespace gpulab::grade
