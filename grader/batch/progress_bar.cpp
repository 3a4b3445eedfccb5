// ProgressBar.
#include "progress_bar.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gpulab::batch {

std::string ProgressBar::duration_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

std::string ProgressBar::eta_text(double elapsed_s, size_t done, size_t total) {
  if (done == 0 || done >= total) return "";
  return "ETA " + duration_text(elapsed_s / static_cast<double>(done) * static_cast<double>(total - done));
}

void ProgressBar::started(size_t to_grade, size_t up_to_date) {
  total_ = to_grade;
  up_to_date_ = up_to_date;
  start_ = std::chrono::steady_clock::now();
  if (up_to_date) {
    fmt::print(out_, "{} submission{} up to date (already graded, unchanged); grading {}\n", up_to_date,
               up_to_date == 1 ? "" : "s", to_grade);
  } else {
    fmt::print(out_, "grading {} submission{}\n", to_grade, to_grade == 1 ? "" : "s");
  }
  std::fflush(out_);
}

void ProgressBar::finished(const StudentRecord& r, bool skipped) {
  if (skipped) return;
  ++done_;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::string score = r.status == GradingStatus::graded
                                ? fmt::format("{:g}/{:g}", std::round(r.score * 100) / 100, r.max_score)
                                : to_string(r.status);
  const std::string eta = eta_text(elapsed, done_, total_);
  if (interactive_) {
    const int width = 30;
    const int filled = total_ ? static_cast<int>(width * done_ / total_) : width;
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(width, '.');
    fmt::print(out_, "\r\033[K[{}] {}/{} {:3.0f}%  {} {}  {} {}", bar, done_, total_,
               total_ ? 100.0 * static_cast<double>(done_) / static_cast<double>(total_) : 100.0, r.student, score,
               duration_text(elapsed), eta);
  } else {
    fmt::print(out_, "[{}/{}] {}: {} ({:.1f} s){}{}\n", done_, total_, r.student, score, r.timing.total_s,
               eta.empty() ? "" : "  ", eta);
  }
  std::fflush(out_);
}

void ProgressBar::close() {
  if (interactive_ && done_) std::fputc('\n', out_);
  std::fflush(out_);
}

}  // namespace gpulab::batch
