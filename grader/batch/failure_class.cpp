// Classification by the grader's own feedback sentences (grader/grade/grading.cpp,
// compare.cpp, the harness): the first problem line decides, except that a data
// race anywhere wins (wrong answers are then its symptom).
#include "failure_class.hpp"

#include <map>
#include <sstream>

namespace gpulab::batch {
using nlohmann::json;

namespace {
struct ClassInfo {
  const char* id;
  const char* title;
};
const ClassInfo kClasses[] = {
    {"compile_error", "does not compile"},
    {"no_submission", "no file to grade"},
    {"grader_error", "could not be graded (grader problem)"},
    {"missing_function", "host function missing"},
    {"timeout", "timed out"},
    {"crash", "crashed"},
    {"early_exit", "exited early"},
    {"cuda_error", "CUDA error"},
    {"no_kernel", "no kernel launched"},
    {"out_of_bounds", "out-of-bounds write"},
    {"input_modified", "input modified"},
    {"data_race", "data race"},
    {"missing_output", "output not produced"},
    {"wrong_answer", "wrong answer"},
    {"other", "other"},
};

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }
bool starts(const std::string& s, const char* what) { return s.rfind(what, 0) == 0; }

// The feedback's own problem lines: diagnostics and program output follow indented.
std::vector<std::string> problem_lines(const std::string& feedback) {
  std::vector<std::string> lines;
  std::istringstream in(feedback);
  for (std::string line; std::getline(in, line);) {
    if (starts(line, "  ")) break;
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}
}  // namespace

const std::vector<std::string>& failure_class_order() {
  static const std::vector<std::string> order = [] {
    std::vector<std::string> v;
    for (const ClassInfo& c : kClasses) v.push_back(c.id);
    return v;
  }();
  return order;
}

std::string failure_class_title(const std::string& id) {
  for (const ClassInfo& c : kClasses)
    if (id == c.id) return c.title;
  return id;
}

std::string classify_case_feedback(const std::string& feedback) {
  const std::vector<std::string> lines = problem_lines(feedback);
  for (const std::string& l : lines)
    if (starts(l, "data race")) return "data_race";
  if (lines.empty()) return "other";
  const std::string& l = lines.front();
  if (starts(l, "timed out")) return "timeout";
  if (starts(l, "crashed")) return "crash";
  if (starts(l, "ended (exit code")) return "early_exit";
  if (contains(l, "does not define")) return "missing_function";
  if (starts(l, "no kernel was launched")) return "no_kernel";
  if (starts(l, "CUDA reported")) return "cuda_error";
  if (starts(l, "out-of-bounds write")) return "out_of_bounds";
  if (contains(l, "was modified")) return "input_modified";
  if (contains(l, "was not produced")) return "missing_output";
  if (contains(l, " wrong") || contains(l, "wrong type or size")) return "wrong_answer";
  return "other";
}

FailureSummary summarize_failures(const json& result) {
  FailureSummary s;
  if (!result.value("compiled", false)) {
    s.failure_class = "compile_error";
    std::istringstream in(result.value("compile_output", std::string()));
    std::string first;
    for (std::string line; std::getline(in, line);) {
      if (contains(line, "error")) {
        first = line;
        break;
      }
      if (first.empty()) first = line;
    }
    s.example = first;
    s.classes = {{"compile_error", first}};
    return s;
  }
  std::map<std::string, int> counts;
  std::map<std::string, std::string> examples;
  for (const json& part : result.value("parts", json::array())) {
    for (const json& c : part.value("cases", json::array())) {
      if (c.value("passed", false)) continue;
      const std::string feedback = c.value("feedback", std::string());
      const std::string cls = classify_case_feedback(feedback);
      ++counts[cls];
      if (!examples.count(cls)) {
        const std::vector<std::string> lines = problem_lines(feedback);
        examples[cls] = part.value("name", std::string()) + ": " + c.value("label", std::string()) + ": " +
                        (lines.empty() ? feedback : lines.front());
      }
    }
  }
  int best = 0;
  for (const std::string& id : failure_class_order()) {
    auto it = counts.find(id);
    if (it == counts.end()) continue;
    s.classes.push_back({id, examples[id]});
    if (it->second > best) {
      best = it->second;
      s.failure_class = id;
    }
  }
  if (!s.failure_class.empty()) s.example = examples[s.failure_class];
  return s;
}

}  // namespace gpulab::batch
