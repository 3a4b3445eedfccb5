// The grading flow, one named step each: what is graded and the parts' maxima,
// the sandbox, the datasets, the build (submission_build), every part's
// correctness cases (part_cases), its sanitizer and counters runs and, where
// speed is scored, its timed case (performance); then the totals.
#include "grading.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "audit/audit.hpp"
#include "grade/dataset_cache.hpp"
#include "platform/executable_path.hpp"
#include "grade/part_cases.hpp"
#include "gold/dataset_generation.hpp"
#include "grade/harness_build.hpp"
#include "grade/performance.hpp"
#include "grade/sanitize.hpp"
#include "grade/hardware_counters.hpp"
#include "grade/submission_build.hpp"
#include "grade/submission_runner.hpp"
#include "grade/submission_source.hpp"
#include "grade/trusted_program.hpp"
#include "files/grader_error.hpp"
#include "files/temp_folder.hpp"
#include "process/run.hpp"
#include "files/utf8_text.hpp"
#include "toolchain/content_hash.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

namespace {
double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string cases_note(const Manifest& m, bool generated) {
  return std::to_string(m.cases.size()) + " cases, " + (generated ? "generated" : "read");
}

std::vector<Manifest> collect_datasets(const LabSpec& lab, const GradeOptions& o, GradingTimings& timings) {
  std::vector<Manifest> out;
  auto t = std::chrono::steady_clock::now();
  const fs::path root = toolchain::project_root();
  const fs::path public_dir = root / "datasets" / lab.lab;
  if (!fs::exists(public_dir / "manifest.json")) {
    throw DatasetError((public_dir / "manifest.json").string() + ": missing, so lab '" + lab.lab +
                       "' has no public datasets; generate them with `gpulab datagen " + lab.lab + " --public`");
  }
  {
    Manifest m = read_manifest(public_dir, true);
    if (m.lab_version != lab.version) {
      throw DatasetError((public_dir / "manifest.json").string() + ": made for lab version " + m.lab_version +
                         ", lab.json is version " + lab.version + " (regenerate with `gpulab datagen " + lab.lab +
                         " --public`)");
    }
    out.push_back(std::move(m));
    timings.steps.push_back({"datasets: committed public (verified)", since(t), cases_note(out.back(), false)});
  }
  if (o.include_large) {
    t = std::chrono::steady_clock::now();
    bool generated = false;
    out.push_back(cached_public_datasets(lab, Selection::public_large, &generated));
    timings.steps.push_back({"datasets: large public (cache)", since(t), cases_note(out.back(), generated)});
  }
  if (o.include_hidden) {
    const char* seed = std::getenv(lab.hidden_seed_env.c_str());
    if (seed && *seed) {
      t = std::chrono::steady_clock::now();
      const unsigned long long s = std::stoull(toolchain::ContentHash().add(seed).add(lab.lab).hex(), nullptr, 16);
      bool generated = false;
      out.push_back(cached_hidden_datasets(lab, s, &generated));
      timings.steps.push_back({"datasets: hidden (cache)", since(t), cases_note(out.back(), generated)});
    }
  }
  return out;
}

}  // namespace

bool speed_is_scored(const GradeOptions& o) {
  if (o.performance == PerformanceMode::automatic) return o.backend == toolchain::Backend::cuda;
  return o.performance == PerformanceMode::on;
}

double part_max_points(const PartSpec& part, bool speed_scored) {
  return speed_scored ? part.points : part.correctness_points();
}

LabSpec load_lab(const std::string& lab) {
  toolchain::check_installation();
  const fs::path file = toolchain::project_root() / "assignments" / lab / "lab.json";
  if (!fs::exists(file)) {
    std::string known;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(toolchain::project_root() / "assignments", ec)) {
      if (fs::exists(e.path() / "lab.json")) known += (known.empty() ? "" : ", ") + e.path().filename().string();
    }
    throw LabSpecError("no lab named '" + lab + "' (" + file.string() + " does not exist); labs: " + known);
  }
  LabSpec spec = load_lab_spec(file);
  if (spec.lab != lab) {
    // Datasets, caches and the bundles are found by the folder's name and results carry lab.json's.
    throw LabSpecError(file.string() + ": lab: says '" + spec.lab + "', but the lab's folder is '" + lab +
                       "': make them the same");
  }
  return spec;
}

void require_gpu_for(toolchain::Backend backend) {
  if (backend == toolchain::Backend::cuda && !process::nvidia_gpu_visible()) {
    // Every case would fail at CUDA's first call: a setup error, not a score of 0.
    throw files::GraderError(
        "--backend cuda, but no NVIDIA GPU is visible here (`nvidia-smi -L` fails): grade on "
        "the GPU machine, or use --backend emu");
  }
}

std::vector<sandbox::PrivatePath> private_paths_of(const fs::path& submission, const GradeOptions& o) {
  std::vector<sandbox::PrivatePath> paths = {
      {toolchain::project_root(), "the gpulab folder (GPULAB_HOME): sources, reference, datasets, hidden seed"},
      {toolchain::cache_directory(), "the build and dataset cache (GPULAB_CACHE)"},
      {fs::is_directory(submission) ? fs::absolute(submission).lexically_normal()
                                    : fs::absolute(submission).lexically_normal().parent_path(),
       "the folder handed in (the submission's own copy is what the run sees)"}};
  // A gpulab run from its build folder: that folder holds the compiled gold and reference code.
  std::error_code ec;
  const fs::path exe = platform::executable_path();
  fs::path d = exe.parent_path();
  for (int up = 0; up < 3 && !ec && !d.empty() && d != d.root_path(); ++up, d = d.parent_path()) {
    if (fs::exists(d / "CMakeCache.txt", ec)) {
      paths.push_back({d, "gpulab's build folder (compiled gold and reference code)"});
      break;
    }
  }
  paths.insert(paths.end(), o.private_paths.begin(), o.private_paths.end());
  return paths;
}

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) { return since(start); }

// Step 1: what is graded (in a handed-in folder, the one file, or why none) and under which options.
GradeResult start_result(const LabSpec& lab, const fs::path& handed_in, const GradeOptions& o, fs::path& submission) {
  GradeResult g;
  g.lab = lab.lab;
  g.lab_version = lab.version;
  submission = handed_in;
  if (fs::is_directory(handed_in)) {  // a handed-in folder: the one file to grade, or a refusal
    const SubmissionSource chosen = choose_submission_source(handed_in, submission_files(handed_in), lab.lab + ".cu");
    submission = chosen.file;
    g.not_graded = chosen.problem;
  }
  g.submission = files::escaped_name(submission.empty() ? handed_in.string() : submission.string());
  g.backend = toolchain::backend_name(o.backend);
  g.hidden_visibility = o.hidden_visibility.empty() ? lab.hidden_visibility : o.hidden_visibility;
  if (o.sanitize && o.backend != toolchain::Backend::cuda) {
    throw std::runtime_error(
        "--sanitize runs compute-sanitizer on a GPU (--backend cuda); on the emulator use "
        "--race-check with `gpulab run`, or read the emulator's own findings in the report");
  }
  return g;
}

// Step 2: the graded parts with their maxima; speed points not scored in this run are left out, and said so.
void add_parts(GradeResult& g, const LabSpec& lab, const GradeOptions& o) {
  const bool speed = speed_is_scored(o);
  double unscored_points = 0;
  for (const PartSpec& p : lab.parts) {
    if (!o.only_parts.empty() && std::find(o.only_parts.begin(), o.only_parts.end(), p.name) == o.only_parts.end())
      continue;
    PartResult pr;
    pr.name = p.name;
    pr.signature = p.signature();
    pr.max_score = p.correctness_points();
    if (p.performance && speed) pr.max_score = p.points;
    if (p.performance && !speed) unscored_points += p.performance->points;
    g.parts.push_back(std::move(pr));
  }
  if (unscored_points > 0) {
    g.performance_note = fmt::format(
        "{:g} of the lab's points are for speed, which is scored on a GPU (--backend cuda); "
        "this {} run grades correctness only.",
        unscored_points, g.backend);
  }
}

// Step 5: the build's outcome; a main() of the submission's own gets a hint before the compiler's words.
void record_build(GradeResult& g, const SubmissionBuild& built, const LabSpec& lab) {
  g.compile_output = built.program.compiler_output;
  // The emulator lacks a library the file includes (CUB, Thrust, cuBLAS: toolchain/missing_cuda_features):
  // where the lab names library algorithms, a GPU is no way round them either.
  if (!built.program.ok && !lab.library_algorithms.algorithms.empty() &&
      built.program.compiler_output.find("is the CUDA toolkit's header for") != std::string::npos) {
    g.compile_output += "gpulab: on a GPU too, this lab asks you to " + lab.library_algorithms.task +
                        ": a library call that computes the lab's answer (its README lists them) holds your points "
                        "for the instructor's review; " +
                        lab.library_algorithms.allowed + " on a GPU\n";
  }
  if (!built.program.ok && (built.program.compiler_output.find("multiple definition of `main'") != std::string::npos ||
                            built.program.compiler_output.find("redefinition of 'int main(") != std::string::npos)) {
    g.compile_output =
        "Your file defines its own main(): the grader supplies main() and calls your host "
        "function, so remove your main() (keep your own tests in a separate file).\n\n" +
        g.compile_output;
  }
  g.compiled = built.program.ok;
  g.compile_seconds = built.seconds;
}

// --sanitize: one committed case under compute-sanitizer; findings, no points.
void sanitize_step(PartResult& pr, const PartSpec& part, const Manifest& committed, const SubmissionBuild& built,
                   const fs::path& work, const SubmissionRunner& runner) {
  const SanitizerResult s = sanitize_part(part, committed, built.program.executable, work / "sanitize", runner);
  pr.sanitized = true;
  pr.sanitizer_case = s.case_label;
  pr.sanitizer_findings = s.findings;
  if (!s.problem.empty()) pr.sanitizer_findings.insert(pr.sanitizer_findings.begin(), s.problem);
}

// --counters: one committed case's memory requests per kernel (the emulator counts in its checking build).
void counters_step(PartResult& pr, const PartSpec& part, const Manifest& committed, const SubmissionBuild& built,
                   const fs::path& work, const SubmissionRunner& runner, const GradeOptions& o) {
  const bool emu = o.backend == toolchain::Backend::emu;
  const CounterResult c = count_part(part, committed, emu ? built.race_program : built.program.executable,
                                     work / "counters", runner, o.backend, o.cuda_arch);
  pr.counters_case = c.case_label;
  pr.counters_source = c.source;
  pr.counters_problem = c.problem;
  pr.counters = c.kernels;
}

// The speed of a part whose speed is scored; its points leave the maximum when not counted.
void speed_step(PartResult& pr, const PartSpec& part, const SubmissionBuild& built, PerformanceScorer& scorer,
                bool all_passed) {
  pr.performance = scorer.measure(part, built.program.executable, all_passed);
  pr.score += pr.performance->score;
  if (!pr.performance->counted) pr.max_score -= pr.performance->max_score;
}

// Step 5b: what the audit of the submission's object found before it was linked (grader/audit/):
// recorded whether or not the link then worked (a definition that collides with the runtime's can
// make the link fail; the student learns why).
void record_audit(GradeResult& g, const SubmissionBuild& built, const LabSpec& lab) {
  if (!built.audit) return;
  g.audit_seconds = built.audit->seconds;
  // Host-visible memory is a finding only where the lab's host_work does not allow it (every part's).
  const bool host_visible_allowed = std::all_of(lab.parts.begin(), lab.parts.end(),
                                                [](const PartSpec& p) { return p.host_work.host_visible_memory; });
  for (const audit::Finding& f : built.audit->findings) {
    if (f.kind == audit::FindingKind::host_visible_memory && host_visible_allowed) continue;
    g.audit.push_back({audit::kind_name(f.kind), f.symbol, f.sentence, f.where});
  }
  for (const AuditNote& n : g.audit) {
    g.review.push_back(
        {"", "the audit of the submission's object: " + n.sentence + (n.where.empty() ? "" : " (" + n.where + ")")});
    // A library the harness is not linked with (cuBLAS, cuDNN, NPP, cuFFT): the link's "undefined
    // reference" is followed by why the call would earn nothing anyway.
    const bool unlinked = !g.compiled && n.kind == audit::kind_name(audit::FindingKind::library_algorithm) &&
                          g.compile_output.find("undefined reference to `" + n.symbol + "'") != std::string::npos;
    if (unlinked) {
      g.compile_output += "gpulab: " + n.symbol +
                          " is in a library the grader does not link (only the CUDA runtime is), and the audit of "
                          "your file found that it " +
                          n.sentence + "\n";
    }
  }
}

bool library_finding(const AuditNote& n) { return n.kind == audit::kind_name(audit::FindingKind::library_algorithm); }
bool host_visible_finding(const AuditNote& n) {
  return n.kind == audit::kind_name(audit::FindingKind::host_visible_memory);
}

// The finding the student reads first: one that makes the program's own word untrustworthy, else
// (every finding a library algorithm or host-visible memory) the first.
const AuditNote& leading_finding(const GradeResult& g) {
  for (const AuditNote& n : g.audit) {
    if (!library_finding(n) && !host_visible_finding(n)) return n;
  }
  return g.audit.front();
}

// Why a submission with audit findings gets no points for its right outputs: for its cases.
Withheld withheld_reason(const GradeResult& g) {
  if (g.audit.empty()) return {};
  const AuditNote& lead = leading_finding(g);
  std::string first = lead.sentence;
  if (g.audit.size() > 1)
    first += fmt::format(" (and {} more finding{})", g.audit.size() - 1, g.audit.size() > 2 ? "s" : "");
  // A library algorithm's sentence says what it is, what the lab asks and that the points are held.
  if (library_finding(lead))
    return {"the audit of your compiled file found that it " + first, FailureKind::library_algorithm};
  if (host_visible_finding(lead)) {
    return {"the audit of your compiled file found that it " + first +
                ". The grader cannot count what the host reads from such memory, so this case's points are held for "
                "the instructor's review. Use device memory and cudaMemcpy, and submit again",
            FailureKind::host_computed};
  }
  return {"the audit of your compiled file found that it " + first +
              ". Your program runs in the same process as the grader's harness, so what it reports of itself (that "
              "a kernel did the work, that the inputs stayed unchanged, the emulator's findings) cannot be trusted: "
              "this case's points are held for the instructor's review. Remove what the audit names and submit again",
          FailureKind::tampering};
}

// A part's speed when the audit found something: no timing at all (its timer is the program's own
// word; a library algorithm's speed is the library's).
void speed_withheld(PartResult& pr, const PartSpec& part, const GradeResult& g) {
  const AuditNote& lead = leading_finding(g);
  PerformanceResult r;
  r.status = PerformanceStatus::failed;
  r.counted = true;
  r.max_score = part.performance->points;
  r.review = "the audit of the submission's object: " + lead.sentence;
  r.feedback = "not timed: the audit of your compiled file found that it " + lead.sentence +
               (library_finding(lead) ? ". A library's speed earns no speed points."
                                      : ". A submission that could change the grader's timer earns no speed points, "
                                        "and the instructor is asked to look at it.");
  pr.performance = r;
}

// Step 6: every part of a compiled submission: its cases, then the sanitizer, the counters and its speed.
void grade_parts(GradeResult& g, const LabSpec& lab, const GradeOptions& o, const std::vector<Manifest>& manifests,
                 const SubmissionBuild& built, const SubmissionRunner& runner) {
  const files::TempFolder work_folder("grade");  // every run's files; gone on every path
  const fs::path& work = work_folder.path();
  TrustedPrograms trusted(lab, o, runner);
  PerformanceScorer scorer(lab, o, work / "speed", runner, trusted);
  const Withheld withheld = withheld_reason(g);
  for (PartResult& pr : g.parts) {
    const PartSpec& part = lab.part(pr.name);
    const bool all_passed =
        run_part_cases(lab, part, manifests, built, work, runner, o, trusted, withheld, pr, g.timings.cases);
    auto t = std::chrono::steady_clock::now();
    if (o.sanitize) {
      sanitize_step(pr, part, manifests.front(), built, work, runner);
      g.timings.steps.push_back({"part " + pr.name + ": compute-sanitizer", since(t), ""});
    }
    t = std::chrono::steady_clock::now();
    if (o.counters) {
      counters_step(pr, part, manifests.front(), built, work, runner, o);
      g.timings.steps.push_back({"part " + pr.name + ": counters", since(t), ""});
    }
    t = std::chrono::steady_clock::now();
    if (part.performance && speed_is_scored(o)) {
      if (withheld.reason.empty()) {
        speed_step(pr, part, built, scorer, all_passed);
        g.timings.steps.push_back({"part " + pr.name + ": speed (reference and submission timed)", since(t), ""});
        for (StepTiming& run : scorer.take_run_timings()) g.timings.steps.push_back(std::move(run));
      } else {
        speed_withheld(pr, part, g);
      }
    }
  }
}

// Step 6, when the submission did not compile: its cases score 0 and scored speed fails.
void fail_speed_uncompiled(GradeResult& g, const LabSpec& lab, const GradeOptions& o) {
  for (PartResult& pr : g.parts) {
    const PartSpec& part = lab.part(pr.name);
    if (part.performance && speed_is_scored(o)) {
      PerformanceResult none;
      none.status = PerformanceStatus::failed;
      none.counted = true;
      none.max_score = part.performance->points;
      none.feedback = "did not compile";
      pr.performance = none;
    }
  }
}

// Step 7: the totals and the time taken.
GradeResult finish(GradeResult g, std::chrono::steady_clock::time_point start) {
  for (const PartResult& p : g.parts) {
    g.score += p.score;
    g.max_score += p.max_score;
    // Each untrusted run once per part and reason: the instructor reads what happened, not every case.
    for (const CaseResult& c : p.cases) {
      if (c.review.empty()) continue;
      const ReviewNote note{p.name, c.label + ": " + c.review};
      const bool seen = std::any_of(g.review.begin(), g.review.end(), [&](const ReviewNote& n) {
        return n.part == p.name && n.reason.substr(n.reason.find(": ") + 2) == c.review;
      });
      if (!seen) g.review.push_back(note);
    }
  }
  g.seconds = seconds_since(start);
  g.timings.total_s = g.seconds;
  return g;
}
}  // namespace

GradeResult grade_submission(const LabSpec& lab, const fs::path& handed_in, const GradeOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  fs::path submission;
  GradeResult g = start_result(lab, handed_in, o, submission);
  add_parts(g, lab, o);
  if (!g.not_graded.empty()) return finish(std::move(g), start);  // nothing to compile: every part scores 0

  require_gpu_for(o.backend);
  const auto sandbox_start = std::chrono::steady_clock::now();
  const SubmissionRunner runner(o.sandbox, o.backend,
                                private_paths_of(submission, o));  // refuses here if the sandbox cannot run
  g.isolation = runner.isolation();
  g.timings.steps.push_back({"sandbox: checked it can run", since(sandbox_start), g.isolation});
  const std::vector<Manifest> manifests = collect_datasets(lab, o, g.timings);

  const SubmissionBuild built = build_submission(lab, submission, o, runner);
  g.timings.steps.insert(g.timings.steps.end(), built.timings.begin(), built.timings.end());
  record_build(g, built, lab);
  record_audit(g, built, lab);
  if (built.program.ok) {
    grade_parts(g, lab, o, manifests, built, runner);
  } else {
    fail_speed_uncompiled(g, lab, o);
  }
  return finish(std::move(g), start);
}

}  // namespace gpulab::grade
