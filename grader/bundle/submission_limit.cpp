// Deciding whether a Gradescope submission is graded under the submission limit, and the
// results.json of one that is not.
#include "submission_limit.hpp"

#include <algorithm>
#include <vector>

namespace gpulab::bundle {
using nlohmann::json;
using namespace std::chrono;

namespace {
constexpr hours kWindow{24};

std::string plural(int n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string next_grading_sentence(const LimitDecision& d) {
  return "Your next submission can be graded from " + readable_time(*d.next_grading, d.offset) + ", in " +
         readable_span(*d.next_grading - d.now) + ".";
}
}  // namespace

bool is_carried_forward(const json& results) {
  if (!results.is_object() || !results.contains("extra_data")) return false;
  const json& extra = results["extra_data"];
  if (!extra.is_object() || !extra.contains(kSubmissionLimitKey)) return false;
  const json& mark = extra[kSubmissionLimitKey];
  return mark.is_object() && mark.contains("carried_forward") && mark["carried_forward"] == true;
}

bool counts_as_graded(const PreviousSubmission& p) {
  return p.results.is_object() && (p.results.contains("score") || p.results.contains("tests")) &&
         !is_carried_forward(p.results);
}

LimitDecision decide_submission_limit(const SubmissionMetadata& m, int limit, TimePoint now) {
  LimitDecision d;
  d.limit = limit;
  d.checked = true;
  d.now = now;
  d.offset = m.created_at.offset;
  std::vector<TimePoint> in_window;
  for (int i = 0; i < static_cast<int>(m.previous.size()); ++i) {
    const PreviousSubmission& p = m.previous[i];
    if (!counts_as_graded(p)) continue;
    if (!p.at) {
      ++d.unreadable;
      continue;
    }
    if (p.at->at > now) continue;
    if (d.carried_from < 0 || p.at->at >= m.previous[d.carried_from].at->at) d.carried_from = i;
    if (now - p.at->at < kWindow) in_window.push_back(p.at->at);
  }
  std::sort(in_window.begin(), in_window.end());
  d.graded_in_window = static_cast<int>(in_window.size());
  if (d.graded_in_window >= limit) {
    // The window must lose graded_in_window - limit + 1 of them before one more fits.
    d.grade = false;
    d.next_grading = in_window[d.graded_in_window - limit] + kWindow;
  } else {
    if (d.graded_in_window + 1 == limit) d.next_grading = (in_window.empty() ? now : in_window.front()) + kWindow;
    d.carried_from = -1;
  }
  return d;
}

LimitDecision unchecked_submission_limit(int limit, const std::string& problem) {
  LimitDecision d;
  d.limit = limit;
  d.problem = problem;
  return d;
}

std::string submission_limit_note(const LimitDecision& d) {
  if (!d.checked) {
    return "The submission limit (at most " + plural(d.limit, "graded submission", "graded submissions") +
           " in any 24 hours) could not be applied: " + d.problem +
           ". This submission was graded as usual; please tell your instructor.";
  }
  std::string s;
  if (d.grade) {
    const int used = d.graded_in_window + 1;
    s = "Submission limit: this is graded submission " + std::to_string(used) + " of the " + std::to_string(d.limit) +
        " allowed in any 24 hours. ";
    if (d.next_grading) {
      s += next_grading_sentence(d);
    } else {
      s += plural(d.limit - used, "more submission", "more submissions") + " can be graded now.";
    }
  } else {
    s = "Submission limit reached: at most " + plural(d.limit, "submission is", "submissions are") +
        " graded in any 24 hours, and " + std::to_string(d.graded_in_window) + " of yours " +
        (d.graded_in_window == 1 ? "was" : "were") +
        " graded in the 24 hours before this one, so this submission was not graded.\n" + next_grading_sentence(d) +
        "\nThe score and tests below are those of your last graded submission, carried forward.";
  }
  if (d.unreadable > 0) {
    s += "\n(" + plural(d.unreadable, "earlier submission was", "earlier submissions were") +
         " not counted: the submission metadata gives no readable time for " + (d.unreadable == 1 ? "it" : "them") +
         ".)";
  }
  return s;
}

json carried_forward_results(const SubmissionMetadata& m, const LimitDecision& d, int execution_time) {
  const PreviousSubmission& p = m.previous.at(d.carried_from);
  json r = p.results;
  if ((!r.contains("score") || !r["score"].is_number()) && p.score) r["score"] = *p.score;
  std::string output = submission_limit_note(d);
  output += "\n\nYour last graded submission was made " + readable_time(p.at->at, d.offset, false) + ".";
  if (r.contains("output") && r["output"].is_string() && !r["output"].get<std::string>().empty()) {
    output += " Its output:\n\n" + r["output"].get<std::string>();
  }
  r["output"] = output;
  if (!r.contains("output_format")) r["output_format"] = "text";
  r["execution_time"] = execution_time;
  if (!r.contains("extra_data") || !r["extra_data"].is_object()) r["extra_data"] = json::object();
  r["extra_data"][kSubmissionLimitKey] = {{"carried_forward", true},
                                          {"max_submissions_per_day", d.limit},
                                          {"graded_in_24_hours", d.graded_in_window},
                                          {"next_grading", iso_time(*d.next_grading, d.offset)},
                                          {"carried_from", p.submission_time}};
  return r;
}

void add_submission_limit_note(json& results, const LimitDecision& d) {
  std::string output = submission_limit_note(d);
  if (results.contains("output") && results["output"].is_string() && !results["output"].get<std::string>().empty()) {
    output += "\n\n" + results["output"].get<std::string>();
  }
  results["output"] = output;
}

}  // namespace gpulab::bundle
