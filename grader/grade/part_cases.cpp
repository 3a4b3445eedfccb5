// Running the correctness cases of one part (see part_cases.hpp).
#include "grade/part_cases.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <utility>

#include "grade/case_findings.hpp"
#include "grade/case_runner.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

namespace {
using PartCase = std::pair<const Manifest*, const DatasetCase*>;

// The part's cases in every manifest, public before hidden, by number.
std::vector<PartCase> cases_of(const LabSpec& lab, const PartSpec& part, const std::vector<Manifest>& manifests) {
  std::vector<PartCase> cases;
  for (const Manifest& m : manifests)
    for (const DatasetCase& c : m.cases)
      if (c.part == part.name) cases.push_back({&m, &c});
  std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) {
    return std::make_pair(a.first->hidden, a.second->number) < std::make_pair(b.first->hidden, b.second->number);
  });
  if (cases.empty()) {
    throw DatasetError("no dataset cases for part '" + part.name + "' of lab '" + lab.lab + "' (datasets/" + lab.lab +
                       "/manifest.json lists none); regenerate with `gpulab datagen " + lab.lab + " --public`");
  }
  return cases;
}

// The number of elements a case moves (inputs and outputs), to compare the sizes of cases.
size_t case_size(const PartSpec& part, const DatasetCase& c) {
  size_t n = 0;
  for (const ParamSpec& p : part.params) {
    if (p.role == ParamRole::size) continue;
    size_t elements = 1;
    for (size_t d : p.resolve_shape(c.sizes)) elements *= d;
    n += elements;
  }
  return n;
}

// The most cases one child runs: enough for any lab's part, and a bound on one request.
// GPULAB_CASES_PER_CHILD lowers it (1: a child per case, as a check of the batches' verdicts).
size_t max_cases_per_child() {
  constexpr size_t kMaxCasesPerChild = 256;
  if (const char* v = std::getenv("GPULAB_CASES_PER_CHILD"); v && *v) {
    const long n = std::strtol(v, nullptr, 10);
    if (n >= 1) return std::min<size_t>(static_cast<size_t>(n), kMaxCasesPerChild);
  }
  return kMaxCasesPerChild;
}

// Whether a case runs in the checking build: the committed public ones, where there is one.
bool runs_checked(const SubmissionBuild& built, const Manifest& m, const DatasetCase& c) {
  return !built.race_program.empty() && !m.hidden && c.is_public;
}

// The profile's hints come from the largest case run in the checking build: the small
// edge cases (n = 1, 31, ...) are mostly partial warps and would drown the pattern. Largest as
// the --counters step measures it (largest_committed_case: the product of the sizes), so that
// the Nsight Compute counts of docs/profile-agreement.md are of the case the hints come from.
const DatasetCase* profiled_case(const PartSpec&, const std::vector<PartCase>& cases, const SubmissionBuild& built) {
  const auto elements = [](const DatasetCase& c) {
    double n = 1;
    for (const auto& [name, v] : c.sizes) n *= static_cast<double>(v);
    return n;
  };
  const DatasetCase* profiled = nullptr;
  for (const auto& [m, c] : cases) {
    if (runs_checked(built, *m, *c) && (!profiled || elements(*c) > elements(*profiled))) profiled = c;
  }
  return profiled;
}

// After a run is stopped by a limit, cases at least as large are not run: they would be
// stopped too, and a hang must cost about one time limit per part, not one per case.
class StopPolicy {
 public:
  // Why a case of this size is not run; empty when it runs.
  std::string skip_reason(size_t size) const {
    if (stopped_.empty() || size < stopped_size_) return "";
    return "not run: " + stopped_ + " of this part was stopped by " + to_string(stopped_by_) +
           ", and this case is at least as large";
  }
  // A case not run counts as what stopped the smaller case.
  FailureKind skipped_failure() const { return stopped_failure_; }
  void record(const CaseResult& run, size_t size) {
    if (run.stopped_by == StopReason::none || (!stopped_.empty() && size >= stopped_size_)) return;
    stopped_ = run.label;
    stopped_by_ = run.stopped_by;
    stopped_failure_ = run.passed ? FailureKind::timeout : run.failure;
    stopped_size_ = size;
  }

 private:
  std::string stopped_;  // the smallest case a limit stopped, its limit and its kind of failure
  StopReason stopped_by_ = StopReason::none;
  FailureKind stopped_failure_ = FailureKind::other;
  size_t stopped_size_ = 0;
};

CaseResult new_case_result(const PartSpec& part, const Manifest& m, const DatasetCase& c, double each) {
  CaseResult cr;
  cr.part = part.name;
  cr.id = c.id;
  cr.family = c.family;
  cr.sizes = c.sizes;
  cr.hidden = m.hidden;
  cr.label = (m.hidden ? "hidden " : "") + c.label();
  cr.max_score = each;
  return cr;
}

// Adds a checked run's profile to the part's; a profile that cannot be read is left out (it
// gives hints, never points).
void add_profile(const CaseRun& run, const fs::path& program, const std::string& arch, const std::string& label,
                 std::vector<profile::ProfileReport>& profiles) {
  if (run.profile_file.empty()) return;
  try {
    profiles.push_back(profile::read_profile(run.profile_file.string(), arch, {}, program.string()));
    profiles.back().source = label;
  } catch (const std::exception&) {}
}

// What is wrong with a run that finished: the harness's findings, the outputs, a data race.
std::vector<Problem> run_problems(const PartSpec& part, const Manifest& m, const DatasetCase& c, const CaseRun& run) {
  std::vector<Problem> problems =
      harness_findings(run.report->call, run.report->kernel_launches, part.host_work, input_volume(part, c));
  if (problems.empty() || problems.front().kind != FailureKind::no_kernel) {
    for (Problem& p : compare_case_outputs(part, m, c, run.dir, "output_")) problems.push_back(std::move(p));
  }
  // A data race fails the case even when this run's outputs happen to be right:
  // on a GPU the same code loses updates.
  if (!run.race.empty()) {
    problems.push_back({FailureKind::data_race,
                        "data race (found by the emulator's race check; on a GPU this gives wrong results "
                        "from run to run): use an atomic operation or a barrier where threads share data"});
  }
  return problems;
}

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The child's phases from the harness's markers (harness_main.cpp), on the parent's clock.
void child_phases(const process::ProcessResult& child, CaseTiming& t) {
  double main = -1, call = -1, returned = -1;
  for (const process::OutputMarker& mk : child.markers) {
    if (mk.name == "main" && main < 0) main = mk.seconds;
    if (mk.name == "call" && call < 0) call = mk.seconds;
    if (mk.name == "returned" && returned < 0) returned = mk.seconds;
  }
  t.start_s = main;
  if (main >= 0 && call >= main) t.setup_s = call - main;
  if (call >= 0 && returned >= call) t.call_s = returned - call;
  if (returned >= 0 && child.seconds >= returned) t.finish_s = child.seconds - returned;
}

// Judges one case from its run: the harness's findings, the outputs, the emulator's findings.
void judge_case(const PartSpec& part, const Manifest& m, const DatasetCase& c, CaseRun& run, const fs::path& work,
                TrustedPrograms& trusted, CaseResult& out, CaseTiming& timing,
                std::vector<profile::ProfileReport>* profiles = nullptr, const std::string& arch = "",
                const fs::path& program = {}) {
  timing.child_s = run.child.seconds;
  timing.read_s = run.read_s;
  child_phases(run.child, timing);
  auto t = std::chrono::steady_clock::now();
  if (!run.harness_error.empty()) {
    // The grader's problem if a trusted program fails the same way (then this throws); else the
    // submission's process wrote that, and the case is its.
    run.review = trusted.check_harness_failure(part, m, c, run.harness_error, work / "trusted-check");
    run.failure =
        "your program's process reported that the grader's harness failed, which it does not do for a "
        "program of the course's own on the same case: this run cannot be graded; it earns no points and "
        "your submission is marked for the instructor's review";
    run.failure_kind = FailureKind::tampering;
  }
  if (profiles) {
    add_profile(run, program, arch, out.label, *profiles);
    timing.profile_s = since(t);
  }
  out.seconds = run.child.seconds;
  out.diagnostics = run.diagnostics;
  out.stopped_by = run.stopped_by;
  out.review = run.review;
  if (!run.failure.empty()) {
    out.feedback = run.failure;
    out.failure = run.failure_kind == FailureKind::none ? FailureKind::other : run.failure_kind;
    return;
  }
  t = std::chrono::steady_clock::now();
  const std::vector<Problem> problems = run_problems(part, m, c, run);
  timing.compare_s = since(t);
  if (problems.empty()) {
    out.passed = true;
    if (!out.diagnostics.empty()) out.feedback = run.with_diagnostics("correct, but the emulator reported:");
    return;
  }
  std::string text;
  for (const Problem& p : problems) text += (text.empty() ? "" : "\n") + p.text;
  out.feedback = run.with_diagnostics(text);
  // A race decides wherever it is listed: the wrong answers are its symptom.
  out.failure = run.race.empty() ? problems.front().kind : FailureKind::data_race;
}

// A host function that computed on the CPU in one case computes on the CPU in all of them: the
// small cases, whose few bytes the policy lets through (host_work.hpp), earn nothing either.
// Returns how many passing cases it failed.
size_t fail_host_computed_part(PartResult& pr) {
  const auto shown = std::find_if(pr.cases.begin(), pr.cases.end(),
                                  [](const CaseResult& c) { return c.failure == FailureKind::host_computed; });
  if (shown == pr.cases.end()) return 0;
  size_t failed = 0;
  for (CaseResult& c : pr.cases) {
    if (!c.passed) continue;
    c.passed = false;
    c.score = 0;
    c.failure = FailureKind::host_computed;
    c.feedback = "your outputs match the expected ones, but " + shown->label +
                 " showed that this host function computes its result on the CPU (see there): no case of the "
                 "part earns points for it";
    ++failed;
  }
  return failed;
}
}  // namespace

bool run_part_cases(const LabSpec& lab, const PartSpec& part, const std::vector<Manifest>& manifests,
                    const SubmissionBuild& built, const fs::path& work, const SubmissionRunner& runner,
                    const GradeOptions& o, TrustedPrograms& trusted, const Withheld& withheld, PartResult& pr,
                    std::vector<CaseTiming>& timings) {
  const std::vector<PartCase> cases = cases_of(lab, part, manifests);
  const double each = part.correctness_points() / static_cast<double>(cases.size());
  const DatasetCase* profiled = profiled_case(part, cases, built);
  std::vector<profile::ProfileReport> profiles;
  StopPolicy stop;
  size_t passed = 0;
  // The part's cases in order, in as few children as will do (case_runner.hpp's batches): the cases
  // that follow one another in the same build go to one child; the profiled case runs alone (its
  // profile is its child's); a child that stops early leaves the rest to the next.
  const auto program_of = [&](const PartCase& pc) {
    return runs_checked(built, *pc.first, *pc.second) ? built.race_program : built.program.executable;
  };
  const auto settle = [&](CaseResult& cr) {
    if (!withheld.reason.empty() && cr.passed) {
      // Right outputs, but whether a kernel computed them (and the inputs stayed unchanged, ...) is
      // the program's own word, which the audit says cannot be trusted; or a library computed them.
      cr.passed = false;
      cr.failure = withheld.kind;
      cr.feedback = "your outputs match the expected ones, but " + withheld.reason;
    }
    if (cr.passed) cr.score = each;
    passed += cr.passed;
    pr.cases.push_back(std::move(cr));
  };
  for (size_t i = 0; i < cases.size();) {
    const auto& [m, c] = cases[i];
    CaseResult first = new_case_result(part, *m, *c, each);
    first.feedback = stop.skip_reason(case_size(part, *c));
    if (!first.feedback.empty()) {
      first.run = false;
      first.failure = stop.skipped_failure();
      settle(first);
      ++i;
      continue;
    }
    const fs::path program = program_of(cases[i]);
    const bool alone = c == profiled;
    std::vector<CaseInBatch> batch{{m, c}};
    for (size_t j = i + 1; !alone && j < cases.size() && batch.size() < max_cases_per_child(); ++j) {
      if (cases[j].second == profiled || program_of(cases[j]) != program) break;
      batch.push_back({cases[j].first, cases[j].second});
    }
    const auto started = std::chrono::steady_clock::now();
    std::vector<CaseRun> runs = run_harness_cases(part, batch, program, work, runner, nlohmann::json::object(), 0, {},
                                                  {}, alone ? Profiling::sampled : Profiling::off);
    double in_children = 0;
    for (const CaseRun& r : runs) in_children += r.child.seconds + r.read_s;
    const double prepare = std::max(0.0, since(started) - in_children);
    for (size_t k = 0; k < runs.size(); ++k, ++i) {
      const auto& [km, kc] = cases[i];
      // cppcheck-suppress accessMoved ; `first` is moved from once, for the batch's first case (k == 0)
      CaseResult cr = k == 0 ? std::move(first) : new_case_result(part, *km, *kc, each);
      CaseTiming timing;
      timing.part = part.name;
      timing.label = cr.label;
      timing.build = !built.race_program.empty() && program == built.race_program ? "checking" : "plain";
      timing.prepare_s = k == 0 ? prepare : 0;
      timing.child = k == 0 ? "new" : "same";
      judge_case(part, *km, *kc, runs[k], work, trusted, cr, timing, alone ? &profiles : nullptr, o.cuda_arch, program);
      if (!runs[k].fresh_process.empty() && k + 1 == runs.size()) timing.fresh_process = runs[k].fresh_process;
      timings.push_back(std::move(timing));
      stop.record(cr, case_size(part, *kc));
      settle(cr);
    }
  }
  passed -= fail_host_computed_part(pr);
  if (!profiles.empty()) pr.profile = profile::merge_profiles(profiles);
  // Counted, not summed: a part whose every case passed has exactly its points (no 34.999...).
  pr.score = passed == pr.cases.size() ? part.correctness_points() : each * static_cast<double>(passed);
  return passed == pr.cases.size();
}

}  // namespace gpulab::grade
