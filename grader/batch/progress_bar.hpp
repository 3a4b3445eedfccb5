// The batch's progress on a terminal: a bar redrawn in place with the count,
// the last student and an ETA; where stderr is not a terminal (a log file, a
// Slurm job), one line per student instead.
#pragma once
#include <chrono>
#include <cstdio>
#include <string>

#include "student_record.hpp"

namespace gpulab::batch {

class ProgressBar {
 public:
  ProgressBar(std::FILE* out, bool interactive) : out_(out), interactive_(interactive) {}
  void started(size_t to_grade, size_t up_to_date);
  void finished(const StudentRecord& r, bool skipped);
  void close();  // ends the bar's line

  // "ETA 3m05s" from the time spent so far on `done` of `total` gradings (empty before the first).
  static std::string eta_text(double elapsed_s, size_t done, size_t total);
  static std::string duration_text(double seconds);  // "45s", "3m05s", "1h02m"

 private:
  std::FILE* out_;
  bool interactive_;
  size_t total_ = 0, done_ = 0, up_to_date_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace gpulab::batch
