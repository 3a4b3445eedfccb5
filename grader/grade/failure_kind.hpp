// Why a dataset case failed, as a kind the grader sets where it finds the
// failure (case_runner, compare, the harness's result, the limits of the run)
// and writes with the case ("failure_kind" in gpulab-results/1): batch's
// failure classes count these, never the feedback's wording.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpulab::grade {

// In the order ties between classes are broken (failure_class.hpp).
enum class FailureKind {
  unknown,            // read from results written before cases carried a kind
  none,               // the case passed
  compile_error,      // the submission (not a case): did not compile
  no_submission,      // the submission: no single file to grade
  grader_error,       // the submission: the grader failed
  tampering,          // what the program reported of itself could not be trusted (a malformed report,
                      // a refused system call, checks withheld after the audit of its object)
  library_algorithm,  // the audit found a library call that computes the lab's answer (cub::DeviceReduce):
                      // right outputs held for the instructor's review
  missing_function,   // the harness found no such host function
  timeout,            // the time limit, the CPU time limit, or the emulator's watchdog
  resource_limit,     // the output, file size or memory limit
  crash,              // ended by a signal
  early_exit,         // ended before the harness's verdict (exit(), its own main())
  cuda_error,         // CUDA reported an error
  no_kernel,          // the host function launched no kernel
  host_computed,      // the result came from host memory, or the inputs were copied to the host
  out_of_bounds,      // wrote past an output buffer
  input_modified,     // changed a read-only input
  data_race,          // the emulator's race check found one
  missing_output,     // an output file was not written
  wrong_answer,       // an output differs from the expected one
  other,              // anything else (the program tampered with its files, ...)
};

NLOHMANN_JSON_SERIALIZE_ENUM(FailureKind, {
                                              {FailureKind::unknown, "unknown"},
                                              {FailureKind::none, "none"},
                                              {FailureKind::compile_error, "compile_error"},
                                              {FailureKind::no_submission, "no_submission"},
                                              {FailureKind::grader_error, "grader_error"},
                                              {FailureKind::tampering, "tampering"},
                                              {FailureKind::library_algorithm, "library_algorithm"},
                                              {FailureKind::missing_function, "missing_function"},
                                              {FailureKind::timeout, "timeout"},
                                              {FailureKind::resource_limit, "resource_limit"},
                                              {FailureKind::crash, "crash"},
                                              {FailureKind::early_exit, "early_exit"},
                                              {FailureKind::cuda_error, "cuda_error"},
                                              {FailureKind::no_kernel, "no_kernel"},
                                              {FailureKind::host_computed, "host_computed"},
                                              {FailureKind::out_of_bounds, "out_of_bounds"},
                                              {FailureKind::input_modified, "input_modified"},
                                              {FailureKind::data_race, "data_race"},
                                              {FailureKind::missing_output, "missing_output"},
                                              {FailureKind::wrong_answer, "wrong_answer"},
                                              {FailureKind::other, "other"},
                                          })

// The kind's name in files ("wrong_answer"), as serialised above.
inline std::string to_string(FailureKind k) { return nlohmann::json(k).get<std::string>(); }

// A problem found in a run: its kind and the sentence the student reads.
struct Problem {
  FailureKind kind = FailureKind::other;
  std::string text;
};

}  // namespace gpulab::grade
