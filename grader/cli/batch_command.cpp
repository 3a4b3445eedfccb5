// `gpulab batch <lab> <submissions> --out DIR`: grade a whole class (locally,
// or as a Slurm job array with --slurm), and `gpulab merge DIR...`: combine
// batch folders (Slurm shards) into one gradebook.csv and report.html. Both take
// --course (late_option.hpp) for late submissions.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "exit_codes.hpp"
#include "files/atomic_file.hpp"
#include "files/folder_lock.hpp"
#include "process/interruption.hpp"
#include "batch/batch_runner.hpp"
#include "batch/class_results.hpp"
#include "batch/merge_batches.hpp"
#include "batch/progress_bar.hpp"
#include "batch_similarity.hpp"
#include "commands.hpp"
#include "toolchain/backend_choice.hpp"
#include "grade/grading.hpp"
#include "late_option.hpp"
#include "report/class_reports.hpp"
#include "slurm/slurm_job.hpp"
#include "platform/executable_path.hpp"

namespace gpulab::cli {
namespace fs = std::filesystem;

namespace {
std::atomic<bool> g_stop{false};
volatile sig_atomic_t g_first_signal = 0;

struct OutFolderBusy : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The first Ctrl-C (or SIGTERM) lets the gradings in progress finish; the second stops them at
// once through the process layer (their children are killed, nothing of them is recorded).
extern "C" void on_stop_signal(int sig) {
  if (g_stop.exchange(true)) {
    process::note_interrupt(sig);
    return;
  }
  g_first_signal = sig;
  static const char msg[] =
      "\ngpulab: stopping: the gradings in progress finish and are kept, nothing new starts "
      "(press Ctrl-C again to stop them at once; everything already graded is kept)\n";
  (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
}

// One `gpulab batch` per --out folder (per shard when sharded): two would grade every student
// twice and overwrite each other's records.
files::FolderLock lock_out_folder(const fs::path& out, unsigned shard_index, unsigned shard_count) {
  files::FolderLock whole, shard;
  std::string holder;
  const bool sharded = shard_count > 1;
  if (!whole.try_lock(out, ".gpulab-batch.lock",
                      sharded ? files::FolderLock::Mode::shared : files::FolderLock::Mode::exclusive, holder) ||
      (sharded &&
       !shard.try_lock(
           out, ".gpulab-batch-shard-" + std::to_string(shard_index) + "-of-" + std::to_string(shard_count) + ".lock",
           files::FolderLock::Mode::exclusive, holder))) {
    throw OutFolderBusy("another gpulab batch (" + holder + ") is writing to " + out.string() +
                        (sharded ? " (the same shard, or the whole class)" : "") +
                        ": wait for it to finish (or stop it), then run this command again; to grade into a "
                        "separate folder, choose another --out");
  }
  return sharded ? std::move(shard) : std::move(whole);
}

struct BatchArgs {
  std::string lab, submissions, out, backend = "auto", shard, partition, gres, time_limit, course;
  std::string sandbox = "bwrap";
  unsigned jobs = 0, shards = 4;
  std::vector<std::string> parts;
  bool no_large = false, no_hidden = false, regrade = false, no_cache = false, slurm = false;
  bool no_similarity = false;
  bool leaderboard_names = false;
};

unsigned default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

void parse_shard(const std::string& text, unsigned& index, unsigned& count) {
  const size_t slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    index = static_cast<unsigned>(std::stoul(text.substr(0, slash)));
    count = static_cast<unsigned>(std::stoul(text.substr(slash + 1)));
  } catch (const std::exception&) {
    throw std::runtime_error("--shard '" + text + "': expected I/K, e.g. 0/4 (shard I of K, counting from 0)");
  }
  if (count == 0 || index >= count) {
    throw std::runtime_error("--shard '" + text + "': I must be between 0 and K-1");
  }
}

// The options every Slurm task passes on to its own `gpulab batch`.
std::vector<std::string> forwarded_args(const BatchArgs& a) {
  std::vector<std::string> v;
  if (a.backend != "auto") v.insert(v.end(), {"--backend", a.backend});
  for (const std::string& p : a.parts) v.insert(v.end(), {"--part", p});
  if (a.no_large) v.push_back("--no-large");
  if (a.no_hidden) v.push_back("--no-hidden");
  if (a.regrade) v.push_back("--regrade");
  if (a.no_cache) v.push_back("--no-cache");
  if (a.sandbox != "bwrap") v.insert(v.end(), {"--sandbox", a.sandbox});
  return v;
}

int submit_slurm(const BatchArgs& a, const LabSpec& lab) {
  const batch::Roster roster = batch::discover_submissions(a.submissions, lab.lab + ".cu");
  slurm::SlurmRequest r;
  r.lab = lab.lab;
  r.gpulab = platform::executable_path();
  r.submissions = fs::absolute(a.submissions).lexically_normal();
  r.out = fs::absolute(a.out).lexically_normal();
  r.shards = std::max(1u, std::min<unsigned>(a.shards, static_cast<unsigned>(roster.submissions.size())));
  r.jobs = a.jobs ? a.jobs : 2;
  r.partition = a.partition;
  r.gres = a.gres;
  r.time_limit = a.time_limit;
  r.grade_args = forwarded_args(a);
  for (const batch::Submission& s : roster.submissions) r.students.push_back(s.student);
  if (!a.course.empty()) r.merge_args = {"--course", fs::absolute(a.course).lexically_normal().string()};
  if (a.leaderboard_names) r.merge_args.push_back("--leaderboard-names");
  const slurm::SlurmSubmission s = slurm::submit_to_slurm(r);
  fmt::print(
      "submitted job array {} ({} tasks, {} submissions) and merge job {} (starts when every task has ended)\n"
      "watch: squeue -j {},{}   logs: {}\n"
      "results: {}/gradebook.csv and {}/report.html once job {} ends\n",
      s.grade_job, r.shards, r.students.size(), s.merge_job, s.grade_job, s.merge_job,
      (r.out / "slurm" / "logs").string(), r.out.string(), r.out.string(), s.merge_job);
  return 0;
}

int run_local(const BatchArgs& a, const LabSpec& lab, const std::optional<late::Course>& course) {
  batch::BatchOptions o;
  o.submissions = a.submissions;
  o.out = a.out;
  o.jobs = a.jobs ? a.jobs : default_jobs();
  o.grade.backend = toolchain::choose_backend(a.backend);
  if (o.grade.backend == toolchain::Backend::cuda && !toolchain::cuda_backend_available()) {
    throw std::runtime_error("--backend cuda needs nvcc, which this build of gpulab did not find; use --backend emu");
  }
  grade::require_gpu_for(o.grade.backend);  // before anyone is graded: a setup error, not a class of zeros
  o.grade.include_large = !a.no_large;
  o.grade.include_hidden = !a.no_hidden;
  o.grade.use_cache = !a.no_cache;
  o.grade.only_parts = a.parts;
  o.grade.sandbox = sandbox::parse_mode(a.sandbox);
  o.grade.private_paths = {{fs::absolute(a.out).lexically_normal(), "the batch's results folder (--out)"}};
  o.regrade = a.regrade;
  if (!a.shard.empty()) parse_shard(a.shard, o.shard_index, o.shard_count);
  fs::create_directories(o.out);
  files::FolderLock lock;
  try {
    lock = lock_out_folder(o.out, o.shard_index, o.shard_count);
  } catch (const OutFolderBusy& e) {
    fmt::print(stderr, "gpulab: {}\n", e.what());
    return exit_code::busy;
  }
  // What a killed earlier run (SIGKILL) left half-written; whole files are all that is read.
  files::remove_stale_partial_files(o.out);
  files::remove_stale_partial_files(o.out / "records");

  batch::ProgressBar bar(stderr, isatty(STDERR_FILENO));
  batch::BatchObserver observer;
  batch::Timing spent;  // summed over the submissions graded now
  size_t timed = 0;
  observer.started = [&](size_t n, size_t done) { bar.started(n, done); };
  observer.finished = [&](const batch::StudentRecord& r, bool skipped) {
    bar.finished(r, skipped);
    if (skipped || r.source.empty()) return;
    ++timed;
    spent.compile_s += r.timing.compile_s;
    spent.run_s += r.timing.run_s;
    spent.compare_s += r.timing.compare_s;
    spent.report_s += r.timing.report_s;
    spent.total_s += r.timing.total_s;
  };
  const auto started = std::chrono::steady_clock::now();
  g_stop = false;
  g_first_signal = 0;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);  // Slurm's scancel and time limit
  const batch::BatchOutcome outcome = batch::run_batch(lab, o, observer, &g_stop);
  process::install_interrupt_handlers();  // back to the process layer's handlers
  bar.close();
  for (const std::string& w : outcome.roster.warnings) fmt::print(stderr, "gpulab: warning: {}\n", w);

  const bool sharded = o.shard_count > 1;
  batch::ClassResults c = batch::load_class_results(o.out, lab, a.parts, outcome.students);
  size_t errors = 0, not_graded = 0, compile_errors = 0;
  for (const batch::StudentEntry& e : c.students) {
    errors += e.record.status == batch::GradingStatus::grader_error;
    not_graded += e.record.status == batch::GradingStatus::missing;
    compile_errors += e.record.status == batch::GradingStatus::compile_error;
  }
  if (!sharded && !outcome.interrupted && !a.no_similarity) write_batch_similarity(lab.lab, a.submissions, o.out);
  if (!sharded) write_reports(o.out, c, course, &outcome.roster, a.leaderboard_names);
  fmt::print(stderr, "{}{} graded now, {} up to date; {} do not compile, {} grader errors{}\n",
             sharded ? ("shard " + a.shard + ": ").c_str() : "", outcome.graded, outcome.up_to_date, compile_errors,
             errors, not_graded ? (", " + std::to_string(not_graded) + " not graded yet").c_str() : "");
  if (timed) {
    const double n = static_cast<double>(timed);
    fmt::print(stderr,
               "time: {:.1f} s for {} gradings with --jobs {}; per submission (mean): compile {:.2f} s, run {:.2f} s, "
               "compare {:.2f} s, report {:.3f} s, total {:.2f} s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), timed, o.jobs,
               spent.compile_s / n, spent.run_s / n, spent.compare_s / n, spent.report_s / n, spent.total_s / n);
  }
  if (!sharded) {
    fmt::print(stderr, "results: {}/<student>.json, {}/gradebook.csv, {}/report.html\n", o.out.string(), o.out.string(),
               o.out.string());
  }
  if (outcome.interrupted) {
    fmt::print(stderr, "gpulab: interrupted; run the same command again to grade the rest\n");
    return 128 + (g_first_signal ? g_first_signal : SIGINT);
  }
  if (errors) {
    fmt::print(stderr,
               "gpulab: {} submission{} could not be graded (see 'grader_error' in the gradebook); run the "
               "same command again to retry them\n",
               errors, errors == 1 ? "" : "s");
    return 1;
  }
  return 0;
}
}  // namespace

void add_batch_commands(CLI::App& app, Action& action) {
  auto a = std::make_shared<BatchArgs>();
  CLI::App* cmd = app.add_subcommand("batch", "Grade a whole class: one result per student, a gradebook and a report");
  cmd->add_option("lab", a->lab, "the lab")->required();
  cmd->add_option("submissions", a->submissions,
                  "folder with one folder (or .cu file) per student, or Gradescope's unzipped export")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--out", a->out, "where results, gradebook.csv and report.html go")->required();
  cmd->add_option("--jobs,-j", a->jobs, "submissions compiled and graded at once (default: the number of cores)");
  cmd->add_option("--backend", a->backend, "auto (GPU if present, else emulator), emu or cuda")
      ->check(CLI::IsMember({"auto", "emu", "cuda"}));
  cmd->add_option("--part", a->parts, "grade only this part (repeatable)");
  cmd->add_flag("--no-large", a->no_large, "skip the large public cases (faster)");
  cmd->add_flag("--no-hidden", a->no_hidden, "do not grade hidden cases even if the secret seed is set");
  cmd->add_flag("--regrade", a->regrade, "grade every submission again, even those already graded and unchanged");
  cmd->add_flag("--no-cache", a->no_cache, "recompile even if an identical build is cached");
  cmd->add_option("--sandbox", a->sandbox,
                  "isolation of each submission: bwrap (default), user (an unprivileged user, where gpulab runs as "
                  "root without namespaces; runs one at a time), auto (bwrap where it starts, else user); see "
                  "docs/security.md")
      ->check(CLI::IsMember({"auto", "bwrap", "user"}));
  cmd->add_flag("--no-similarity", a->no_similarity, "skip the code similarity report (OUT/similarity/)");
  cmd->add_option("--shard", a->shard, "grade only shard I of K (I/K, from 0); `gpulab merge` combines the shards");
  cmd->add_flag("--slurm", a->slurm, "submit a Slurm job array (one task per shard) and a merge job, then return");
  cmd->add_option("--partition", a->partition, "Slurm partition (with --slurm)");
  cmd->add_option("--gres", a->gres, "Slurm generic resources per task, e.g. gpu:1 (with --slurm)");
  cmd->add_option("--shards", a->shards, "number of Slurm tasks (with --slurm; default 4)");
  cmd->add_option("--time", a->time_limit, "Slurm time limit per task, e.g. 01:00:00 (with --slurm)");
  cmd->add_option("--course", a->course,
                  "course file (JSON): due dates, time zone and late policy; adds the late columns to gradebook.csv "
                  "(docs/batch-grading.md)");
  cmd->add_flag("--leaderboard-names", a->leaderboard_names,
                "show students' names in report.html's leaderboard (default: pseudonyms, mapped back by "
                "leaderboard-pseudonyms.csv)");
  cmd->callback([a, &action] {
    action = [a] {
      const LabSpec lab = grade::load_lab(a->lab);
      for (const std::string& p : a->parts) lab.part(p);
      if (!a->slurm && (!a->partition.empty() || !a->gres.empty() || !a->time_limit.empty())) {
        throw std::runtime_error("--partition, --gres and --time are Slurm options: add --slurm");
      }
      if (a->slurm && !a->shard.empty()) throw std::runtime_error("--shard and --slurm do not go together");
      if (!a->course.empty() && !a->shard.empty()) {
        throw std::runtime_error(
            "--course with --shard: a shard writes no gradebook; give --course to `gpulab merge` "
            "when combining the shards");
      }
      if (a->leaderboard_names && !a->shard.empty()) {
        throw std::runtime_error(
            "--leaderboard-names with --shard: a shard writes no report; give "
            "--leaderboard-names to `gpulab merge` when combining the shards");
      }
      const std::optional<late::Course> course = load_course(a->course, lab.lab);  // checked before any grading
      return a->slurm ? submit_slurm(*a, lab) : run_local(*a, lab, course);
    };
  });

  auto dirs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  auto course_file = std::make_shared<std::string>();
  auto leaderboard_names = std::make_shared<bool>(false);
  CLI::App* merge =
      app.add_subcommand("merge", "Combine batch folders (e.g. Slurm shards) into one gradebook and report");
  merge->add_option("dirs", *dirs, "batch --out folders")->required()->check(CLI::ExistingDirectory);
  merge->add_option("--out", *out, "where the merged results go (default: the first folder)");
  merge->add_option("--course", *course_file,
                    "course file (JSON): due dates, time zone and late policy; adds the late columns to gradebook.csv");
  merge->add_flag("--leaderboard-names", *leaderboard_names,
                  "show students' names in report.html's leaderboard (default: pseudonyms)");
  merge->callback([dirs, out, course_file, leaderboard_names, &action] {
    action = [dirs, out, course_file, leaderboard_names] {
      std::vector<fs::path> paths(dirs->begin(), dirs->end());
      const fs::path target = out->empty() ? paths.front() : fs::path(*out);
      // A mistake in the course file stops the merge before anything is copied.
      if (!course_file->empty()) (void)late::read_course_file(*course_file);
      const batch::MergeOutcome m = batch::merge_batches(paths, target);
      const LabSpec lab = grade::load_lab(m.lab);
      const std::optional<late::Course> course = load_course(*course_file, m.lab);
      std::vector<std::string> parts;
      for (const fs::path& d : paths) {
        if (!fs::exists(batch::plan_path(d))) continue;
        const nlohmann::json plan = nlohmann::json::parse(files::read_whole_file(batch::plan_path(d)));
        const std::vector<std::string> args = plan.value("grade_args", std::vector<std::string>{});
        for (size_t i = 0; i + 1 < args.size(); ++i)
          if (args[i] == "--part") parts.push_back(args[i + 1]);
      }
      batch::ClassResults c = batch::load_class_results(target, lab, parts, m.students);
      write_reports(target, c, course, nullptr, *leaderboard_names);
      fmt::print("merged {} students of lab '{}' into {} (gradebook.csv, report.html)\n", m.students.size(), m.lab,
                 target.string());
      if (!m.missing.empty()) {
        std::string names;
        for (size_t i = 0; i < m.missing.size() && i < 10; ++i) names += (i ? ", " : "") + m.missing[i];
        if (m.missing.size() > 10) names += ", ...";
        fmt::print(stderr,
                   "gpulab: no result for {} student{} of the plan ({}): a task failed or was cancelled; see "
                   "{}/slurm/logs, then run the same `gpulab batch --slurm` again (graded students are skipped)\n",
                   m.missing.size(), m.missing.size() == 1 ? "" : "s", names, target.string());
        return 1;
      }
      return 0;
    };
  });
}

}  // namespace gpulab::cli
