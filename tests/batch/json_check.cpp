// A small JSON checker for the shell tests of this folder (no jq needed):
//   json_check gradescope FILE         validate a Gradescope results.json; print "score=S tests=N hidden=H"
//   json_check prairielearn FILE       validate a PrairieLearn results.json; print
//                                      "gradable=G score=S tests=N hidden=H format_errors=E"
//   json_check same-result A B         two gpulab-results/1 files agree except for times and the path
//   json_check get FILE KEY [KEY...]   print a value (object keys or array indices)
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

using nlohmann::json;

namespace {
json load(const char* path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
  return json::parse(in);
}

int fail(const std::string& why) {
  std::fprintf(stderr, "json_check: %s\n", why.c_str());
  return 1;
}

int check_gradescope(const json& j) {
  if (!j.is_object()) return fail("not an object");
  if (!j.contains("score") || !j["score"].is_number()) return fail("no numeric top-level score");
  if (!j.contains("tests") || !j["tests"].is_array()) return fail("no tests array");
  const std::set<std::string> visibilities = {"hidden", "after_due_date", "after_published", "visible"};
  int hidden = 0;
  double sum = 0;
  for (const json& t : j["tests"]) {
    for (const char* k : {"name", "output", "status", "visibility"})
      if (!t.contains(k) || !t[k].is_string()) return fail(std::string("a test without a string '") + k + "'");
    for (const char* k : {"score", "max_score"})
      if (!t.contains(k) || !t[k].is_number()) return fail(std::string("a test without a numeric '") + k + "'");
    const std::string status = t["status"];
    if (status != "passed" && status != "failed") return fail("status '" + status + "'");
    if (!visibilities.count(t["visibility"].get<std::string>())) return fail("visibility " + t["visibility"].dump());
    if (t["score"].get<double>() > t["max_score"].get<double>() + 1e-9) return fail("score above max_score");
    hidden += t["visibility"] != "visible";
    sum += t["score"].get<double>();
  }
  if (j.contains("visibility") && !visibilities.count(j["visibility"].get<std::string>()))
    return fail("top visibility");
  if (j["tests"].size() && std::abs(sum - j["score"].get<double>()) > 0.05 * j["tests"].size() + 1e-9)
    return fail("the tests' scores do not add up to the score");
  std::printf("score=%g tests=%zu hidden=%d\n", j["score"].get<double>(), j["tests"].size(), hidden);
  return 0;
}

// PrairieLearn's external-grader results (docs/prairielearn.md): score in [0, 1] when gradable, a
// non-empty format_errors when not, and tests whose points add up to the score's fraction.
int check_prairielearn(const json& j) {
  if (!j.is_object()) return fail("not an object");
  if (j.contains("gradable") && !j["gradable"].is_boolean()) return fail("'gradable' is not a boolean");
  const bool gradable = j.value("gradable", true);
  size_t errors = 0;
  if (!gradable) {
    if (!j.contains("format_errors")) return fail("not gradable, and no format_errors say why");
    const json& e = j["format_errors"];
    if (e.is_string()) errors = 1;
    else if (e.is_array() && !e.empty()) {
      for (const json& s : e)
        if (!s.is_string()) return fail("a format error that is not a string");
      errors = e.size();
    } else {
      return fail("format_errors is neither a string nor a non-empty array of strings");
    }
  }
  if (gradable && (!j.contains("score") || !j["score"].is_number())) return fail("gradable, but no numeric score");
  const double score = j.value("score", 0.0);
  if (score < 0 || score > 1) return fail("score " + std::to_string(score) + " is outside [0, 1]");
  for (const char* k : {"message", "output"})
    if (j.contains(k) && !j[k].is_string()) return fail(std::string("top-level '") + k + "' is not a string");
  if (j.contains("tests") && !j["tests"].is_array()) return fail("'tests' is not an array");
  const json tests = j.value("tests", json::array());
  double points = 0, max_points = 0;
  int hidden = 0;
  for (const json& t : tests) {
    if (!t.contains("name") || !t["name"].is_string()) return fail("a test without a string 'name'");
    for (const char* k : {"description", "message", "output"})
      if (t.contains(k) && !t[k].is_string()) return fail(std::string("a test's '") + k + "' is not a string");
    for (const char* k : {"points", "max_points"})
      if (!t.contains(k) || !t[k].is_number()) return fail(std::string("a test without a numeric '") + k + "'");
    if (t["points"].get<double>() > t["max_points"].get<double>() + 1e-9) return fail("points above max_points");
    points += t["points"].get<double>();
    max_points += t["max_points"].get<double>();
    hidden += t["name"].get<std::string>().find(": hidden ") != std::string::npos;
  }
  // Each test's points are rounded to 0.01: allow that much per test.
  if (max_points > 0 && std::abs(points / max_points - score) > 0.01 * tests.size() / max_points + 1e-6)
    return fail("the tests' points do not add up to the score");
  std::printf("gradable=%s score=%g tests=%zu hidden=%d format_errors=%zu\n", gradable ? "true" : "false", score,
              tests.size(), hidden, errors);
  return 0;
}

void strip_times(json& j) {
  if (j.is_object()) {
    j.erase("seconds");
    j.erase("compile_seconds");
    j.erase("submission");
    for (auto& [k, v] : j.items()) strip_times(v);
  } else if (j.is_array()) {
    for (json& v : j) strip_times(v);
  }
}
}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "gradescope" && argc == 3) return check_gradescope(load(argv[2]));
    if (cmd == "prairielearn" && argc == 3) return check_prairielearn(load(argv[2]));
    if (cmd == "same-result" && argc == 4) {
      json a = load(argv[2]), b = load(argv[3]);
      strip_times(a);
      strip_times(b);
      if (a != b) return fail(std::string(argv[2]) + " and " + argv[3] + " differ");
      return 0;
    }
    if (cmd == "get" && argc >= 4) {
      json j = load(argv[2]);
      for (int i = 3; i < argc; ++i) j = j.is_array() ? j.at(std::stoul(argv[i])) : j.at(argv[i]);
      std::cout << (j.is_string() ? j.get<std::string>() : j.dump()) << "\n";
      return 0;
    }
    return fail("usage: json_check gradescope FILE | prairielearn FILE | same-result A B | get FILE KEY...");
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}
