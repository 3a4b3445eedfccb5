// Runs `gpulab grade` on one submission and checks the result against what
// tests/labs/<lab>/expectations.json (or the reference/skeleton rule) says:
// per part "full", "zero" or "loses", and substrings the feedback must contain.
// Usage: check_grade GPULAB LAB SUBMISSION [--no-large] [--no-cache] [part=full|zero|loses]... [feedback=TEXT]...
#include <algorithm>
#include <cctype>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "process/run.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(
        stderr,
        "usage: %s GPULAB LAB SUBMISSION [--no-large] [--no-cache] [part=full|zero|loses]... [feedback=TEXT]...\n",
        argv[0]);
    return 2;
  }
  char out_path[] = "/tmp/gpulab-check-XXXXXX";
  const int fd = mkstemp(out_path);
  if (fd >= 0) close(fd);
  std::vector<std::string> cmd = {argv[1], "grade",       argv[2], argv[3], "--format",
                                  "json",  "--no-hidden", "--out", out_path};
  std::map<std::string, std::string> expect;
  std::vector<std::string> feedback;
  for (int i = 4; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--no-large" || a == "--no-cache") cmd.push_back(a);
    else if (a.rfind("feedback=", 0) == 0) feedback.push_back(a.substr(9));
    else if (auto eq = a.find('='); eq != std::string::npos) expect[a.substr(0, eq)] = a.substr(eq + 1);
  }
  const auto run = gpulab::process::run(cmd);
  nlohmann::json r;
  try {
    std::ifstream in(out_path);
    r = nlohmann::json::parse(in);
    std::remove(out_path);
  } catch (const std::exception&) {
    std::printf("gpulab grade did not produce JSON (exit %d):\n%s\n", run.exit_code, run.output.c_str());
    return 1;
  }
  int failures = 0;
  std::string all_feedback;
  for (const auto& part : r.at("parts")) {
    const std::string name = part.at("name");
    const double score = part.at("score"), max = part.at("max_score");
    for (const auto& c : part.at("cases")) {
      all_feedback += c.at("feedback").get<std::string>() + "\n";
      for (const auto& d : c.at("diagnostics")) all_feedback += d.get<std::string>() + "\n";
    }
    auto it = expect.find(name);
    if (it == expect.end()) continue;
    const bool ok = it->second == "full"   ? score >= max - 1e-6
                    : it->second == "zero" ? score <= 1e-9
                                           : score < max - 1e-6;
    std::printf("part %-10s %7.2f / %-7.2f expected %-5s %s\n", name.c_str(), score, max, it->second.c_str(),
                ok ? "ok" : "WRONG");
    if (!ok) {
      ++failures;
      for (const auto& c : part.at("cases"))
        if (!c.at("passed").get<bool>())
          std::printf("  %s: %s\n", c.at("label").get<std::string>().c_str(),
                      c.at("feedback").get<std::string>().c_str());
    }
    expect.erase(it);
  }
  for (const auto& [part, what] : expect) {
    std::printf("expected part '%s' (%s) is not in the results\n", part.c_str(), what.c_str());
    ++failures;
  }
  std::string lower = all_feedback;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
  for (std::string f : feedback) {
    std::string lf = f;
    std::transform(lf.begin(), lf.end(), lf.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (lower.find(lf) == std::string::npos) {
      std::printf("feedback does not mention \"%s\"; it was:\n%s\n", f.c_str(), all_feedback.c_str());
      ++failures;
    }
  }
  if (!r.at("compiled").get<bool>())
    std::printf("did not compile:\n%s\n", r.at("compile_output").get<std::string>().c_str());
  return failures == 0 ? 0 : 1;
}
