// The grading loop: build, run every correctness case of every part in its
// own child process (case_runner), then, where speed is scored, the timed
// case (performance); score each part on its own.
#include "grading.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>

#include "grade/case_runner.hpp"
#include "grade/dataset_cache.hpp"
#include "grade/harness_build.hpp"
#include "grade/performance.hpp"
#include "grade/sanitize.hpp"
#include "grade/hardware_counters.hpp"
#include "grade/submission_runner.hpp"
#include "grade/submission_source.hpp"
#include "files/grader_error.hpp"
#include "files/temp_folder.hpp"
#include "process/run.hpp"
#include "files/utf8_text.hpp"
#include "toolchain/content_hash.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

namespace {
std::vector<Manifest> collect_datasets(const LabSpec& lab, const GradeOptions& o, std::optional<files::TempFolder>& hidden_dir) {
  std::vector<Manifest> out;
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
  }
  if (o.include_large) out.push_back(cached_public_datasets(lab, Selection::public_large));
  if (o.include_hidden) {
    const char* seed = std::getenv(lab.hidden_seed_env.c_str());
    if (seed && *seed) {
      const unsigned long long s = std::stoull(toolchain::ContentHash().add(seed).add(lab.lab).hex(), nullptr, 16);
      hidden_dir.emplace("hidden");
      out.push_back(generate_datasets(lab, s, true, Selection::all, hidden_dir->path()));
    }
  }
  return out;
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

// Adds a checked run's profile to the part's; a profile that cannot be read is left out (it
// gives hints, never points).
void add_profile(const CaseRun& run, const fs::path& program, const std::string& arch, const std::string& label,
                 std::vector<profile::ProfileReport>& profiles) {
  if (run.profile_file.empty()) return;
  try {
    profiles.push_back(profile::read_profile(run.profile_file.string(), arch, {}, program.string()));
    profiles.back().source = label;
  } catch (const std::exception&) {
  }
}

void run_case(const PartSpec& part, const Manifest& m, const DatasetCase& c, const fs::path& program,
              const fs::path& work, const SubmissionRunner& runner, CaseResult& out,
              std::vector<profile::ProfileReport>* profiles = nullptr, const std::string& arch = "") {
  const CaseRun run = run_harness_case(part, m, c, program, work, runner, nlohmann::json::object(), 0, {}, {},
                                       profiles ? Profiling::sampled : Profiling::off);
  if (profiles) add_profile(run, program, arch, out.label, *profiles);
  out.seconds = run.child.seconds;
  out.diagnostics = run.diagnostics;
  out.stopped_by = run.stopped_by;
  if (!run.failure.empty()) {
    out.feedback = run.failure;
    return;
  }
  std::vector<std::string> problems = harness_findings(run.result);
  if (problems.empty() || problems.front().rfind("no kernel", 0) != 0) {
    for (std::string& p : compare_case_outputs(part, m, c, run.dir, "output_")) problems.push_back(std::move(p));
  }
  // A data race fails the case even when this run's outputs happen to be right:
  // on a GPU the same code loses updates.
  if (!run.race.empty()) {
    problems.push_back("data race (found by the emulator's race check; on a GPU this gives wrong results "
                       "from run to run): use an atomic operation or a barrier where threads share data");
  }
  if (problems.empty()) {
    out.passed = true;
    if (!out.diagnostics.empty()) out.feedback = run.with_diagnostics("correct, but the emulator reported:");
    return;
  }
  std::string text;
  for (const std::string& p : problems) text += (text.empty() ? "" : "\n") + p;
  out.feedback = run.with_diagnostics(text);
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
    throw files::GraderError("--backend cuda, but no NVIDIA GPU is visible here (`nvidia-smi -L` fails): grade on "
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
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
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

GradeResult grade_submission(const LabSpec& lab, const fs::path& handed_in, const GradeOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  GradeResult g;
  g.lab = lab.lab;
  g.lab_version = lab.version;
  fs::path submission = handed_in;
  if (fs::is_directory(handed_in)) {  // a handed-in folder: the one file to grade, or a refusal
    const SubmissionSource chosen =
        choose_submission_source(handed_in, submission_files(handed_in), lab.lab + ".cu");
    submission = chosen.file;
    g.not_graded = chosen.problem;
  }
  g.submission = files::escaped_name(submission.empty() ? handed_in.string() : submission.string());
  g.backend = toolchain::backend_name(o.backend);
  g.hidden_visibility = o.hidden_visibility.empty() ? lab.hidden_visibility : o.hidden_visibility;
  const bool speed = speed_is_scored(o);
  if (o.sanitize && o.backend != toolchain::Backend::cuda) {
    throw std::runtime_error("--sanitize runs compute-sanitizer on a GPU (--backend cuda); on the emulator use "
                             "--race-check with `gpulab run`, or read the emulator's own findings in the report");
  }
  double unscored_points = 0;
  for (const PartSpec& p : lab.parts) {
    if (!o.only_parts.empty() && std::find(o.only_parts.begin(), o.only_parts.end(), p.name) == o.only_parts.end()) continue;
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

  if (!g.not_graded.empty()) {  // nothing to compile: every part scores 0, the reason says why
    g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const PartResult& p : g.parts) g.max_score += p.max_score;
    return g;
  }

  require_gpu_for(o.backend);
  const SubmissionRunner runner(o.sandbox, o.backend, private_paths_of(submission, o));  // refuses here if the sandbox cannot run
  g.isolation = runner.isolation();
  std::optional<files::TempFolder> hidden_dir;  // the hidden cases' expected outputs: gone on every path
  const std::vector<Manifest> manifests = collect_datasets(lab, o, hidden_dir);

  toolchain::BuildOptions b = harness_build_options(lab, o.backend, o.use_cache, o.cuda_arch);
  b.run_compiler = runner.compile_runner(lab);
  const auto compile_start = std::chrono::steady_clock::now();
  const toolchain::BuildResult built = toolchain::build_program(submission, b);
  g.compile_output = built.compiler_output;
  if (!built.ok && (built.compiler_output.find("multiple definition of `main'") != std::string::npos ||
                    built.compiler_output.find("redefinition of 'int main(") != std::string::npos)) {
    g.compile_output = "Your file defines its own main(): the grader supplies main() and calls your host "
                       "function, so remove your main() (keep your own tests in a separate file).\n\n" +
                       g.compile_output;
  }
  g.compiled = built.ok;
  // On the emulator the committed public cases also run in the checking build, which
  // reports data races (a race rarely changes the emulator's own results).
  fs::path race_program;
  if (built.ok && o.backend == toolchain::Backend::emu && o.race_check && toolchain::race_check_available()) {
    toolchain::BuildOptions rb = b;
    rb.race_check = true;
    const toolchain::BuildResult race_built = toolchain::build_program(submission, rb);
    if (race_built.ok) race_program = race_built.executable;
  }
  g.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - compile_start).count();
  if (built.ok) {
    const files::TempFolder work_folder("grade");
    const fs::path& work = work_folder.path();
    PerformanceScorer scorer(lab, o, work / "speed", runner);
    for (PartResult& pr : g.parts) {
      const PartSpec& part = lab.part(pr.name);
      std::vector<std::pair<const Manifest*, const DatasetCase*>> cases;
      for (const Manifest& m : manifests)
        for (const DatasetCase& c : m.cases)
          if (c.part == part.name) cases.push_back({&m, &c});
      std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) {
        return std::make_pair(a.first->hidden, a.second->number) < std::make_pair(b.first->hidden, b.second->number);
      });
      if (cases.empty()) {
        throw DatasetError("no dataset cases for part '" + part.name + "' of lab '" + lab.lab +
                           "' (datasets/" + lab.lab + "/manifest.json lists none); regenerate with `gpulab datagen " +
                           lab.lab + " --public`");
      }
      const double each = part.correctness_points() / static_cast<double>(cases.size());
      bool all_passed = true;
      // After a run is stopped by a limit, cases at least as large are not run: they would be
      // stopped too, and a hang must cost about one time limit per part, not one per case.
      std::string stopped, stopped_by;  // the smallest case a limit stopped, and the limit
      size_t stopped_size = 0;
      size_t passed = 0;
      // The profile's hints come from the largest case run in the checking build: the small
      // edge cases (n = 1, 31, ...) are mostly partial warps and would drown the pattern.
      std::vector<profile::ProfileReport> profiles;
      const DatasetCase* profiled = nullptr;
      for (const auto& [m, c] : cases) {
        if (!race_program.empty() && !m->hidden && c->is_public &&
            (!profiled || case_size(part, *c) > case_size(part, *profiled)))
          profiled = c;
      }
      for (const auto& [m, c] : cases) {
        CaseResult cr;
        cr.part = part.name;
        cr.id = c->id;
        cr.family = c->family;
        cr.sizes = c->sizes;
        cr.hidden = m->hidden;
        cr.label = (m->hidden ? "hidden " : "") + c->label();
        cr.max_score = each;
        const bool checked = !race_program.empty() && !m->hidden && c->is_public;
        const size_t size = case_size(part, *c);
        if (!stopped.empty() && size >= stopped_size) {
          cr.feedback = "not run: " + stopped + " of this part was stopped by " + stopped_by +
                        ", and this case is at least as large";
          cr.run = false;
          all_passed = false;
          pr.cases.push_back(std::move(cr));
          continue;
        }
        run_case(part, *m, *c, checked ? race_program : built.executable, work, runner, cr,
                 checked && c == profiled ? &profiles : nullptr, o.cuda_arch);
        if (!cr.stopped_by.empty() && (stopped.empty() || size < stopped_size)) {
          stopped = cr.label;
          stopped_by = cr.stopped_by;
          stopped_size = size;
        }
        if (cr.passed) cr.score = each;
        all_passed &= cr.passed;
        passed += cr.passed;
        pr.cases.push_back(std::move(cr));
      }
      if (!profiles.empty()) pr.profile = profile::merge_profiles(profiles);
      // Counted, not summed: a part whose every case passed has exactly its points (no 34.999...).
      pr.score = passed == pr.cases.size() ? part.correctness_points() : each * static_cast<double>(passed);
      if (o.sanitize) {
        const SanitizerResult s =
            sanitize_part(part, manifests.front(), built.executable, work / "sanitize", runner);
        pr.sanitized = true;
        pr.sanitizer_case = s.case_label;
        pr.sanitizer_findings = s.findings;
        if (!s.problem.empty()) pr.sanitizer_findings.insert(pr.sanitizer_findings.begin(), s.problem);
      }
      if (o.counters) {
        const bool emu = o.backend == toolchain::Backend::emu;
        const CounterResult c = count_part(part, manifests.front(), emu ? race_program : built.executable,
                                           work / "counters", runner, o.backend, o.cuda_arch);
        pr.counters_case = c.case_label;
        pr.counters_source = c.source;
        pr.counters_problem = c.problem;
        pr.counters = c.kernels;
      }
      if (part.performance && speed) {
        pr.performance = scorer.measure(part, built.executable, all_passed);
        pr.score += pr.performance->score;
        if (!pr.performance->counted) pr.max_score -= pr.performance->max_score;
      }
    }
  } else {
    for (PartResult& pr : g.parts) {
      const PartSpec& part = lab.part(pr.name);
      if (part.performance && speed) {
        PerformanceResult none;
        none.status = "failed";
        none.counted = true;
        none.max_score = part.performance->points;
        none.feedback = "did not compile";
        pr.performance = none;
      }
    }
  }
  for (const PartResult& p : g.parts) {
    g.score += p.score;
    g.max_score += p.max_score;
  }
  g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return g;
}

}  // namespace gpulab::grade
