// run_batch and grade_one.
#include "batch_runner.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "files/atomic_file.hpp"
#include "files/utf8_text.hpp"
#include "process/interruption.hpp"
#include "failure_class.hpp"
#include "grade/reports.hpp"
#include "grade/results_model.hpp"
#include "prebuild.hpp"
#include "submission_key.hpp"

namespace gpulab::batch {
namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Asked to stop: the caller's flag (a first Ctrl-C), or an interruption the process layer saw.
bool stopping(const std::atomic<bool>* stop) { return (stop && stop->load()) || process::interrupt_signal() != 0; }

// Up to date: same key, and the result it describes is still there. Grader errors are always retried.
bool up_to_date(const fs::path& out, const Submission& s, const std::string& key, StudentRecord& existing) {
  auto r = read_record(out, s.student);
  if (!r || r->key != key || r->status == GradingStatus::grader_error) return false;
  if (r->has_result() && !fs::exists(result_path(out, s.student))) return false;
  existing = *r;
  return true;
}

void write_record(const fs::path& out, const StudentRecord& r) {
  files::write_json_atomically(record_path(out, r.student), record_to_json(r), 2);
}
}  // namespace

std::vector<const Submission*> shard_of(const Roster& roster, unsigned index, unsigned count) {
  std::vector<const Submission*> mine;
  for (size_t i = 0; i < roster.submissions.size(); ++i)
    if (count <= 1 || i % count == index) mine.push_back(&roster.submissions[i]);
  return mine;
}

bool grade_one(const LabSpec& lab, const Submission& s, const BatchOptions& o, const std::string& key,
               std::mutex* gpu_lane, const std::atomic<bool>* stop, StudentRecord& r) {
  const auto start = Clock::now();
  r = StudentRecord{};
  r.student = s.student;
  r.key = key;
  r.submission_id = s.submission_id;
  r.submitters = s.submitters;
  r.content_hash = s.content_hash;
  r.created_at = s.created_at;
  r.newest_file_time = s.newest_file_time;
  r.lab = lab.lab;
  r.lab_version = lab.version;
  r.backend = toolchain::backend_name(o.grade.backend);
  r.grader_version = grader_version();
  r.max_score = 0;
  for (const PartSpec& p : lab.parts)
    if (o.grade.only_parts.empty() ||
        std::find(o.grade.only_parts.begin(), o.grade.only_parts.end(), p.name) != o.grade.only_parts.end())
      r.max_score += grade::part_max_points(p, grade::speed_is_scored(o.grade));

  if (s.source.empty()) {
    r.status = GradingStatus::no_submission;
    r.message = s.problem;
    r.failure_class = FailureKind::no_submission;
    r.failure_example = s.problem;
    r.failure_classes = {{FailureKind::no_submission, s.problem}};
  } else {
    // "alice/scan.cu"; a name that is not UTF-8 keeps its bytes visible as \xNN
    r.source = files::escaped_name(fs::relative(s.source, s.location.parent_path()).generic_string());
    try {
      const PrebuildResult built = prebuild_submission(lab, s.source, o.grade);
      r.timing.compile_s = built.seconds;
      if (stopping(stop)) return false;  // a compiler stopped by Ctrl-C is not the student's fault
      grade::GradeResult g;
      const auto grade_start = Clock::now();
      {
        std::unique_lock<std::mutex> lane;
        if (gpu_lane) lane = std::unique_lock<std::mutex>(*gpu_lane);
        if (stopping(stop)) return false;
        grade::GradeOptions go = o.grade;
        go.use_cache = true;  // prebuild_submission honoured --no-cache; grading uses what it just built
        g = grade::grade_submission(lab, s.source, go);
      }
      const double grade_seconds = since(grade_start);  // kept even if stopped meanwhile: it compiled before
      double run = 0;
      for (const grade::PartResult& p : g.parts)
        for (const grade::CaseResult& c : p.cases) run += c.seconds;
      r.timing.run_s = run;
      r.timing.compare_s = std::max(0.0, grade_seconds - run);
      g.submission = r.source;
      const grade::ResultsRecord result = grade::results_record(g);
      const FailureSummary f = summarize_failures(result);
      r.status = g.compiled ? GradingStatus::graded : GradingStatus::compile_error;
      r.failure_class = f.failure_class;
      r.failure_example = f.example;
      r.failure_classes = f.classes;
      r.score = g.score;
      r.max_score = g.max_score;
      const auto report_start = Clock::now();
      files::write_json_atomically(result_path(o.out, s.student), grade::to_json(result), 2);
      r.timing.report_s = since(report_start);
    } catch (const std::exception& e) {
      if (stopping(stop)) return false;
      r.status = GradingStatus::grader_error;
      r.message = e.what();
      r.failure_class = FailureKind::grader_error;
      r.failure_example = e.what();
      r.failure_classes = {{FailureKind::grader_error, e.what()}};
    }
  }
  r.graded_at = utc_now_iso8601();
  const auto record_start = Clock::now();
  r.timing.total_s = since(start);
  write_record(o.out, r);
  r.timing.report_s += since(record_start);
  return true;
}

BatchOutcome run_batch(const LabSpec& lab, const BatchOptions& o, const BatchObserver& observer,
                       const std::atomic<bool>* stop) {
  BatchOutcome outcome;
  outcome.roster = discover_submissions(o.submissions, lab.lab + ".cu");
  const std::vector<const Submission*> mine = shard_of(outcome.roster, o.shard_index, o.shard_count);
  for (const Submission* s : mine) outcome.students.push_back(s->student);
  fs::create_directories(o.out / "records");

  // Sort out what is up to date before starting, so the progress bar knows the real amount of work.
  struct Pending {
    const Submission* s;
    std::string key;
  };
  std::vector<Pending> pending;
  std::vector<StudentRecord> done_before;
  for (const Submission* s : mine) {
    const std::string key = submission_key(s->content_hash, lab, o.grade);
    StudentRecord existing;
    if (!o.regrade && up_to_date(o.out, *s, key, existing)) {
      done_before.push_back(existing);
    } else {
      pending.push_back({s, key});
    }
  }
  outcome.up_to_date = done_before.size();
  std::mutex report_mutex;
  if (observer.started) observer.started(pending.size(), done_before.size());
  if (observer.finished)
    for (const StudentRecord& r : done_before) observer.finished(r, true);
  if (pending.empty()) return outcome;
  // The warm-up below needs a submission that is really graded (one with a .cu file).
  const auto gradable =
      std::find_if(pending.begin(), pending.end(), [](const Pending& p) { return !p.s->source.empty(); });
  if (gradable != pending.end()) std::rotate(pending.begin(), gradable, gradable + 1);

  prepare_lab_binding(lab);
  std::mutex gpu_lane;
  std::mutex* lane = o.grade.backend == toolchain::Backend::cuda ? &gpu_lane : nullptr;
  std::atomic<size_t> next{0}, graded{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;  // e.g. the output folder became unwritable: stop taking work, report it
  auto work = [&] {
    try {
      for (;;) {
        if (stopping(stop) || failed) return;
        const size_t i = next++;
        if (i >= pending.size()) return;
        StudentRecord r;
        if (!grade_one(lab, *pending[i].s, o, pending[i].key, lane, stop, r)) return;
        ++graded;
        std::lock_guard<std::mutex> g(report_mutex);
        if (observer.finished) observer.finished(r, false);
      }
    } catch (...) {
      std::lock_guard<std::mutex> g(report_mutex);
      if (!failed.exchange(true)) failure = std::current_exception();
    }
  };
  // The first submission alone: its grading fills the caches every other one reads
  // (the large public datasets), which parallel gradings must not build twice at once.
  {
    const size_t i = next++;
    StudentRecord r;
    if (grade_one(lab, *pending[i].s, o, pending[i].key, lane, stop, r)) {
      ++graded;
      if (observer.finished) observer.finished(r, false);
    }
  }
  std::vector<std::thread> workers;
  const size_t n = std::min<size_t>(std::max(1u, o.jobs), pending.size() - 1);
  for (size_t k = 0; k < n; ++k) workers.emplace_back(work);
  for (std::thread& t : workers) t.join();
  if (failure) std::rethrow_exception(failure);
  outcome.graded = graded;
  outcome.interrupted = stopping(stop) && graded + done_before.size() < mine.size();
  return outcome;
}

}  // namespace gpulab::batch
