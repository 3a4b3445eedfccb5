// Parsing Gradescope's submission_metadata.json into the fields the submission limit needs.
#include "submission_metadata.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpulab::bundle {
using nlohmann::json;

namespace {
std::optional<double> number_in(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    try {
      std::size_t used = 0;
      const std::string s = v.get<std::string>();
      const double d = std::stod(s, &used);
      if (used == s.size()) return d;
    } catch (const std::exception&) {}
  }
  return std::nullopt;
}
}  // namespace

SubmissionMetadata parse_submission_metadata(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(origin + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object()) throw std::runtime_error(origin + ": expected a JSON object, found " + j.type_name());
  SubmissionMetadata m;
  const json created = j.value("created_at", json());
  if (!created.is_string()) throw std::runtime_error(origin + ": no \"created_at\" (the submission's time)");
  m.created_at_text = created.get<std::string>();
  const std::optional<OffsetTime> at = parse_offset_time(m.created_at_text);
  if (!at) {
    throw std::runtime_error(origin + ": \"created_at\" is \"" + m.created_at_text +
                             "\", not a time such as \"2018-07-01T14:22:32.365935-07:00\"");
  }
  m.created_at = *at;
  const json previous = j.value("previous_submissions", json());
  if (!previous.is_array()) {
    throw std::runtime_error(origin + ": \"previous_submissions\" is " +
                             (previous.is_null() ? std::string("missing") : std::string("not a list")));
  }
  for (const json& e : previous) {
    PreviousSubmission p;
    if (e.is_object()) {
      if (e.contains("submission_time") && e["submission_time"].is_string()) {
        p.submission_time = e["submission_time"].get<std::string>();
        p.at = parse_offset_time(p.submission_time);
      }
      if (e.contains("score")) p.score = number_in(e["score"]);
      if (e.contains("results")) p.results = e["results"];
    }
    m.previous.push_back(std::move(p));
  }
  return m;
}

SubmissionMetadata read_submission_metadata(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read (it does not exist or is not readable)");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error(path + ": reading it failed");
  return parse_submission_metadata(text.str(), path);
}

}  // namespace gpulab::bundle
