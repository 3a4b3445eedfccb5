// Counting the failure kinds the grader recorded with each case
// (parts[].cases[].failure_kind): a data race is decided where it was found
// (grade/grading.cpp), so here every failed case counts once, as its kind.
#include "failure_class.hpp"

#include <map>
#include <sstream>

namespace gpulab::batch {

namespace {
struct ClassInfo {
  FailureKind kind;
  const char* title;
};
const ClassInfo kClasses[] = {
    {FailureKind::compile_error, "does not compile"},
    {FailureKind::no_submission, "no file to grade"},
    {FailureKind::grader_error, "could not be graded (grader problem)"},
    {FailureKind::tampering, "its own report could not be trusted (for review)"},
    {FailureKind::library_algorithm, "a library computed the answer (for review)"},
    {FailureKind::missing_function, "host function missing"},
    {FailureKind::timeout, "timed out"},
    {FailureKind::resource_limit, "stopped by a limit (output, file size, memory)"},
    {FailureKind::crash, "crashed"},
    {FailureKind::early_exit, "exited early"},
    {FailureKind::cuda_error, "CUDA error"},
    {FailureKind::no_kernel, "no kernel launched"},
    {FailureKind::host_computed, "computed on the host"},
    {FailureKind::out_of_bounds, "out-of-bounds write"},
    {FailureKind::input_modified, "input modified"},
    {FailureKind::data_race, "data race"},
    {FailureKind::missing_output, "output not produced"},
    {FailureKind::wrong_answer, "wrong answer"},
    {FailureKind::other, "other"},
    {FailureKind::unknown, "unknown (results from an older gpulab)"},
};

// The feedback's first line: diagnostics and program output follow, indented.
std::string first_line(const std::string& feedback) {
  std::istringstream in(feedback);
  std::string line;
  std::getline(in, line);
  return line;
}
}  // namespace

const std::vector<FailureKind>& failure_class_order() {
  static const std::vector<FailureKind> order = [] {
    std::vector<FailureKind> v;
    for (const ClassInfo& c : kClasses) v.push_back(c.kind);
    return v;
  }();
  return order;
}

std::string failure_class_title(FailureKind kind) {
  for (const ClassInfo& c : kClasses)
    if (kind == c.kind) return c.title;
  return to_string(kind);
}

FailureSummary summarize_failures(const grade::ResultsRecord& result) {
  FailureSummary s;
  if (!result.not_graded.empty()) {
    s.failure_class = FailureKind::no_submission;
    s.example = result.not_graded;
    s.classes = {{FailureKind::no_submission, result.not_graded}};
    return s;
  }
  if (!result.compiled) {
    s.failure_class = FailureKind::compile_error;
    std::istringstream in(result.compile_output);
    std::string first;
    for (std::string line; std::getline(in, line);) {
      if (line.find("error") != std::string::npos) {
        first = line;
        break;
      }
      if (first.empty()) first = line;
    }
    s.example = first;
    s.classes = {{FailureKind::compile_error, first}};
    return s;
  }
  std::map<FailureKind, int> counts;
  std::map<FailureKind, std::string> examples;
  for (const grade::PartRecord& part : result.parts) {
    for (const grade::CaseRecord& c : part.cases) {
      if (c.passed) continue;
      // A failed case recorded as passing (none) cannot come from this grader: counted as other.
      const FailureKind kind = c.failure_kind == FailureKind::none ? FailureKind::other : c.failure_kind;
      ++counts[kind];
      if (!examples.count(kind)) {
        examples[kind] = part.name + ": " + c.label + ": " +
                         (kind == FailureKind::unknown
                              ? "written by a gpulab that did not record failure kinds; grade it again to classify it"
                              : first_line(c.feedback));
      }
    }
  }
  int best = 0;
  for (FailureKind kind : failure_class_order()) {
    auto it = counts.find(kind);
    if (it == counts.end()) continue;
    s.classes.push_back({kind, examples[kind]});
    if (it->second > best) {
      best = it->second;
      s.failure_class = kind;
    }
  }
  if (s.failure_class != FailureKind::none) s.example = examples[s.failure_class];
  return s;
}

}  // namespace gpulab::batch
