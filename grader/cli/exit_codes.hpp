// gpulab's exit codes, one list for every command; docs/exit-codes.md says what
// each means and what an instructor does after it. Scripts (Gradescope's
// run_autograder, Slurm jobs, CI) branch on these numbers: never reuse one for
// a different meaning.
#pragma once

namespace gpulab::cli::exit_code {

constexpr int ok = 0;
// The command ran and has a negative answer: `test` below full marks, `validate`
// found problems, `bench` saw a wrong output, `batch` left submissions with grader errors.
constexpr int not_all_good = 1;
constexpr int bad_input = 2;            // a wrong argument, lab, dataset, file or course setting
constexpr int did_not_compile = 3;      // `grade`: the submission did not compile (results written, score 0)
constexpr int cannot_write = 4;         // the results could not be written where asked
constexpr int sandbox_unavailable = 5;  // the sandbox cannot start here (docs/security.md)
constexpr int grader_error = 6;         // the installation or the machine failed; nothing written for the student
constexpr int busy = 7;                 // another gpulab batch is writing to the same --out folder
// `grade --max-submissions-per-day`: over the limit, not graded; the results carry the last graded score forward.
constexpr int over_submission_limit = 8;
// Stopped by a signal: 128 + the signal, as a shell reports it.
constexpr int interrupted_sigint = 130;
constexpr int interrupted_sigterm = 143;

}  // namespace gpulab::cli::exit_code
