// ProgressBar.
#include "progress_bar.hpp"

#include <algorithm>
#include <cmath>

namespace gpulab::batch {

std::string ProgressBar::duration_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%lds", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  return buf;
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
    std::fprintf(out_, "%zu submission%s up to date (already graded, unchanged); grading %zu\n", up_to_date,
                 up_to_date == 1 ? "" : "s", to_grade);
  } else {
    std::fprintf(out_, "grading %zu submission%s\n", to_grade, to_grade == 1 ? "" : "s");
  }
  std::fflush(out_);
}

void ProgressBar::finished(const StudentRecord& r, bool skipped) {
  if (skipped) return;
  ++done_;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char score[64];
  if (r.status == GradingStatus::graded) std::snprintf(score, sizeof score, "%g/%g", std::round(r.score * 100) / 100, r.max_score);
  else std::snprintf(score, sizeof score, "%s", to_string(r.status).c_str());
  const std::string eta = eta_text(elapsed, done_, total_);
  if (interactive_) {
    const int width = 30;
    const int filled = total_ ? static_cast<int>(width * done_ / total_) : width;
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(out_, "\r\033[K[%s] %zu/%zu %3.0f%%  %s %s  %s %s", bar.c_str(), done_, total_,
                 total_ ? 100.0 * done_ / total_ : 100.0, r.student.c_str(), score, duration_text(elapsed).c_str(),
                 eta.c_str());
  } else {
    std::fprintf(out_, "[%zu/%zu] %s: %s (%.1f s)%s%s\n", done_, total_, r.student.c_str(), score, r.timing.total_s,
                 eta.empty() ? "" : "  ", eta.c_str());
  }
  std::fflush(out_);
}

void ProgressBar::close() {
  if (interactive_ && done_) std::fputc('\n', out_);
  std::fflush(out_);
}

}  // namespace gpulab::batch
