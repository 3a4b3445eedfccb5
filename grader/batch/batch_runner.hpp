// Grading a class: a small pool of worker threads, each taking the next
// submission, compiling it (in parallel with the others) and grading it; on
// the GPU backend the grading runs one submission at a time, so timings are
// not disturbed by a neighbour. A submission whose key matches its existing
// record is not graded again, and every result is written atomically, so an
// interrupted batch resumes where it stopped.
#pragma once
#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "class_roster.hpp"
#include "grade/grading.hpp"
#include "student_record.hpp"

namespace gpulab::batch {

struct BatchOptions {
  std::filesystem::path submissions;
  std::filesystem::path out;
  unsigned jobs = 2;
  grade::GradeOptions grade;
  bool regrade = false;      // grade everything, ignoring existing records
  unsigned shard_index = 0;  // grade only the students whose position % shard_count == shard_index
  unsigned shard_count = 1;
};

// Called (from worker threads, one call at a time) as each student is done.
struct BatchObserver {
  std::function<void(size_t to_grade, size_t up_to_date)> started;
  std::function<void(const StudentRecord& r, bool skipped)> finished;
};

struct BatchOutcome {
  Roster roster;
  std::vector<std::string> students;  // this shard's students, sorted
  size_t graded = 0;
  size_t up_to_date = 0;
  bool interrupted = false;
};

// The students of shard i of k (round-robin over the sorted roster).
std::vector<const Submission*> shard_of(const Roster& roster, unsigned index, unsigned count);

// Grades one submission and writes DIR/<student>.json and DIR/records/<student>.json.
// Returns false (writing nothing) when `stop` was raised before its grading started (while it
// compiled: a compiler stopped by Ctrl-C must not count as the student's compile error).
bool grade_one(const LabSpec& lab, const Submission& s, const BatchOptions& o, const std::string& key,
               std::mutex* gpu_lane, const std::atomic<bool>* stop, StudentRecord& out);

// Throws std::runtime_error for problems with the folders (missing, unwritable, empty).
BatchOutcome run_batch(const LabSpec& lab, const BatchOptions& o, const BatchObserver& observer,
                       const std::atomic<bool>* stop);

}  // namespace gpulab::batch
