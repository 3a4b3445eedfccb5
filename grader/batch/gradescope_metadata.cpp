// A line parser for the subset of YAML that Gradescope's export writes:
//
//   submission_123456:
//     :submitters:
//     - :name: Ada Lovelace
//       :sid: '1001'
//       :email: ada@example.edu
//     :created_at: 2026-11-20 10:11:12.000000000 -08:00
//     :score: 80.0
//
// Scalars may be plain, 'single-quoted' ('' is a quote) or "double-quoted".
#include "gradescope_metadata.hpp"

#include <sstream>
#include <stdexcept>

#include "files/atomic_file.hpp"

namespace gpulab::batch {
namespace {

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string unquote(const std::string& raw) {
  const std::string v = trim(raw);
  if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'') {
    std::string out;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
      out += v[i];
      if (v[i] == '\'' && v[i + 1] == '\'') ++i;
    }
    return out;
  }
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
      if (v[i] == '\\' && i + 2 < v.size()) {
        const char c = v[++i];
        out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
      } else {
        out += v[i];
      }
    }
    return out;
  }
  return v;
}

// ":name: Ada" -> ("name", "Ada"); "key: value" -> ("key", "value").
bool split_pair(const std::string& content, std::string& key, std::string& value) {
  size_t start = content[0] == ':' ? 1 : 0;
  const size_t colon = content.find(':', start);
  if (colon == std::string::npos) return false;
  key = content.substr(start, colon - start);
  value = unquote(content.substr(colon + 1));
  return true;
}

}  // namespace

std::map<std::string, GradescopeSubmission> parse_gradescope_submissions(const std::string& text,
                                                                         const std::string& origin) {
  std::map<std::string, GradescopeSubmission> out;
  std::istringstream in(text);
  std::string line, current;
  int child_indent = -1;  // indentation of the current submission's own keys
  bool in_submitters = false;
  int item_indent = -1;  // indentation of the keys of the current list item
  int number = 0;
  for (; std::getline(in, line);) {
    ++number;
    const std::string content = trim(line);
    if (content.empty() || content[0] == '#' || content == "---") continue;
    const int indent = static_cast<int>(line.find_first_not_of(' '));
    if (indent == 0) {
      if (content.back() != ':') {
        throw std::runtime_error(origin + ":" + std::to_string(number) +
                                 ": expected a submission folder name followed by ':' (is this Gradescope's "
                                 "submission_metadata.yml?)");
      }
      current = unquote(content.substr(0, content.size() - 1));
      out[current];
      child_indent = -1;
      in_submitters = false;
      continue;
    }
    if (current.empty()) continue;
    const bool item = content.rfind("- ", 0) == 0 || content == "-";
    if (child_indent < 0 && !item) child_indent = indent;
    if (indent == child_indent && !item) {
      in_submitters = content.rfind(":submitters:", 0) == 0;
      std::string key, value;
      if (split_pair(content, key, value) && key == "created_at") out[current].created_at = value;
      continue;
    }
    if (!in_submitters || indent < child_indent) continue;
    std::string rest = content;
    if (item) {
      out[current].submitters.push_back({});
      item_indent = indent + 2;
      rest = trim(content.substr(1));
      if (rest.empty()) continue;
    } else if (indent != item_indent || out[current].submitters.empty()) {
      continue;  // nested deeper than a submitter's own keys
    }
    std::string key, value;
    if (!split_pair(rest, key, value)) continue;
    Submitter& s = out[current].submitters.back();
    if (key == "name") s.name = value;
    else if (key == "email") s.email = value;
    else if (key == "sid") s.sid = value;
  }
  if (out.empty()) throw std::runtime_error(origin + ": lists no submissions");
  return out;
}

std::map<std::string, GradescopeSubmission> read_gradescope_submissions(const std::filesystem::path& yml) {
  return parse_gradescope_submissions(files::read_whole_file(yml), yml.string());
}

std::map<std::string, std::vector<Submitter>> parse_gradescope_metadata(const std::string& text,
                                                                        const std::string& origin) {
  std::map<std::string, std::vector<Submitter>> out;
  for (auto& [folder, s] : parse_gradescope_submissions(text, origin)) out[folder] = std::move(s.submitters);
  return out;
}

std::map<std::string, std::vector<Submitter>> read_gradescope_metadata(const std::filesystem::path& yml) {
  return parse_gradescope_metadata(files::read_whole_file(yml), yml.string());
}

}  // namespace gpulab::batch
