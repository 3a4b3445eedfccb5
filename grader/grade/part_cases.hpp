// The correctness cases of one part: every dataset case of the part, public
// before hidden and by number, each in its own child process (case_runner),
// with the stop policy for runs a limit stopped, and the profile's hints from
// the checking build; then the part's correctness score.
#pragma once
#include <filesystem>
#include <vector>

#include "data/dataset.hpp"
#include "grade/grading.hpp"
#include "grade/grading_timings.hpp"
#include "grade/submission_build.hpp"
#include "grade/submission_runner.hpp"
#include "grade/trusted_program.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

// Why a part's right outputs earn nothing until the instructor has looked (the audit found
// something): the student's words and the kind the cases fail as. An empty reason withholds nothing.
struct Withheld {
  std::string reason;
  FailureKind kind = FailureKind::tampering;  // or library_algorithm
};

// Fills pr.cases, pr.profile and pr.score (correctness only); true when every case passed.
// `trusted` checks a run that says the harness itself failed (trusted_program.hpp). `withheld`,
// when its reason is not empty, says why the points are held (an audit finding: what the program
// reports of itself cannot be trusted, or a library computed the answer): a case whose outputs
// are right then fails all the same, with that reason.
// Throws DatasetError when the datasets hold no case of the part. Each run's timing is appended
// to `timings` (measurement only).
bool run_part_cases(const LabSpec& lab, const PartSpec& part, const std::vector<Manifest>& manifests,
                    const SubmissionBuild& built, const std::filesystem::path& work, const SubmissionRunner& runner,
                    const GradeOptions& options, TrustedPrograms& trusted, const Withheld& withheld, PartResult& pr,
                    std::vector<CaseTiming>& timings);

}  // namespace gpulab::grade
