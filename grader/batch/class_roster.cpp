// discover_submissions and the content hash of a submission.
#include "class_roster.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "files/atomic_file.hpp"
#include "data/sha256.hpp"
#include "files/utf8_text.hpp"
#include "grade/submission_source.hpp"

namespace gpulab::batch {
namespace fs = std::filesystem;

namespace {
bool ignored_name(const std::string& name) { return grade::ignored_submission_name(name); }

std::vector<fs::path> files_of(const fs::path& location) { return grade::submission_files(location); }

std::string hash_of(const fs::path& location, const std::vector<fs::path>& files) {
  std::string all;
  const fs::path base = fs::is_regular_file(location) ? location.parent_path() : location;
  for (const fs::path& f : files) {
    const std::string bytes = files::read_whole_file(base / f);
    all +=
        f.generic_string() + '\0' + std::to_string(bytes.size()) + '\0' + sha256_hex(bytes.data(), bytes.size()) + '\n';
  }
  return sha256_hex(all.data(), all.size());
}

// The newest modification time of the files handed in, as UTC ISO 8601; "" when there are none.
std::string newest_file_time(const fs::path& location, const std::vector<fs::path>& files) {
  const fs::path base = fs::is_regular_file(location) ? location.parent_path() : location;
  std::optional<fs::file_time_type> newest;
  for (const fs::path& f : files) {
    std::error_code ec;
    const fs::file_time_type t = fs::last_write_time(base / f, ec);
    if (!ec && (!newest || t > *newest)) newest = t;
  }
  if (!newest) return "";
  const std::time_t t = std::chrono::system_clock::to_time_t(
      std::chrono::time_point_cast<std::chrono::system_clock::duration>(std::chrono::file_clock::to_sys(*newest)));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void choose_source(Submission& s, const std::vector<fs::path>& files, const std::string& source_name) {
  const fs::path base = fs::is_regular_file(s.location) ? s.location.parent_path() : s.location;
  const grade::SubmissionSource chosen = grade::choose_submission_source(base, files, source_name);
  s.source = chosen.file;
  if (!chosen.problem.empty()) s.problem = chosen.problem + " in " + files::escaped_name(s.location.string());
}

std::string label_for(const std::vector<Submitter>& people, const std::string& fallback) {
  std::string label;
  for (const Submitter& p : people) {
    const std::string one = !p.email.empty() ? p.email : !p.sid.empty() ? p.sid : p.name;
    if (!one.empty()) label += (label.empty() ? "" : "+") + one;
  }
  return safe_label(label.empty() ? fallback : label);
}
}  // namespace

std::string safe_label(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    const bool keep = std::isalnum(c) || c == '.' || c == '_' || c == '@' || c == '+' || c == '-';
    out += keep ? static_cast<char>(c) : '_';
  }
  while (!out.empty() && out[0] == '.') out[0] = '_';  // never a hidden file
  if (out.empty()) out = "_";
  return out;
}

Roster discover_submissions(const fs::path& dir, const std::string& source_name) {
  if (!fs::is_directory(dir)) {
    throw std::runtime_error("'" + dir.string() +
                             "' is not a folder: give the folder that holds one folder per "
                             "student (or Gradescope's unzipped export)");
  }
  Roster r;
  r.root = dir;
  // Gradescope's zip unpacks to one folder (assignment_NNN_export) holding the metadata.
  if (!fs::exists(dir / "submission_metadata.yml")) {
    std::vector<fs::path> children;
    for (const auto& e : fs::directory_iterator(dir))
      if (!ignored_name(e.path().filename().string())) children.push_back(e.path());
    if (children.size() == 1 && fs::exists(children[0] / "submission_metadata.yml")) r.root = children[0];
  }
  std::map<std::string, GradescopeSubmission> metadata;
  if (fs::exists(r.root / "submission_metadata.yml")) {
    r.gradescope_export = true;
    metadata = read_gradescope_submissions(r.root / "submission_metadata.yml");
  }

  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(r.root)) {
    const std::string name = e.path().filename().string();
    if (ignored_name(name)) continue;
    if (e.is_directory() || (e.is_regular_file() && e.path().extension() == ".cu")) entries.push_back(e.path());
  }
  std::sort(entries.begin(), entries.end());
  std::set<std::string> seen_ids;
  for (const fs::path& location : entries) {
    Submission s;
    s.location = location;
    const std::string name = location.filename().string();
    if (r.gradescope_export) {
      s.submission_id = name;
      seen_ids.insert(name);
      if (auto it = metadata.find(name); it != metadata.end()) {
        s.submitters = it->second.submitters;
        s.created_at = it->second.created_at;
      } else {
        r.warnings.push_back("'" + name + "' is not listed in submission_metadata.yml; graded under its folder name");
      }
      s.student = label_for(s.submitters, name);
    } else {
      s.student = safe_label(fs::is_regular_file(location) ? location.stem().string() : name);
    }
    const std::vector<fs::path> files = files_of(location);
    s.content_hash = hash_of(location, files);
    s.newest_file_time = newest_file_time(location, files);
    choose_source(s, files, source_name);
    r.submissions.push_back(std::move(s));
  }
  for (const auto& [id, people] : metadata) {
    if (!seen_ids.count(id))
      r.warnings.push_back("submission_metadata.yml lists '" + id + "' but there is no such folder");
  }
  // Labels must be unique: a repeated one gets its submission id (or a number) appended.
  std::map<std::string, int> uses;
  for (const Submission& s : r.submissions) ++uses[s.student];
  std::set<std::string> taken;
  for (const Submission& s : r.submissions)
    if (uses[s.student] < 2) taken.insert(s.student);
  for (Submission& s : r.submissions) {
    if (uses[s.student] < 2) continue;
    const std::string base = s.student;
    std::string label = s.submission_id.empty() ? "" : base + "-" + safe_label(s.submission_id);
    for (int k = 1; label.empty() || taken.count(label); ++k) label = base + "-" + std::to_string(k);
    taken.insert(label);
    s.student = label;
  }
  std::sort(r.submissions.begin(), r.submissions.end(),
            [](const Submission& a, const Submission& b) { return a.student < b.student; });
  if (r.submissions.empty()) {
    throw std::runtime_error("'" + dir.string() +
                             "' holds no submissions: expected one folder (or one .cu file) per "
                             "student, or Gradescope's export with submission_metadata.yml");
  }
  return r;
}

}  // namespace gpulab::batch
