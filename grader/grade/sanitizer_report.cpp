// Implementation of sanitizer_report.hpp. compute-sanitizer prefixes every
// line with "========= "; a finding is a headline followed by indented lines
// ("    at KERNEL(ARGS)+0xOFF in FILE:LINE", "    by thread (x,y,z) in block
// (x,y,z)", "    Address ...", "    and Read access at ..."). Host
// backtraces ("Saved host backtrace", "Host Frame:") and the summary are
// skipped.
#include "grade/sanitizer_report.hpp"

#include <regex>
#include <sstream>

namespace gpulab::grade {
namespace {
const std::string kPrefix = "========= ";

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

std::string trim(std::string s) {
  const size_t a = s.find_first_not_of(" \t\r");
  const size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string base_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "reduce_kernel<float>(const float *, float *, int)+0x70 in /x/y.cu:31" -> kernel, file, line
void parse_location(const std::string& text, SanitizerFinding& f) {
  static const std::regex at(R"(^(.*?)\+0x[0-9a-fA-F]+ in (.*):([0-9]+)\s*$)");
  static const std::regex at_no_line(R"(^(.*?)\+0x[0-9a-fA-F]+)");
  std::smatch m;
  std::string name;
  if (std::regex_search(text, m, at)) {
    name = m[1];
    f.file = base_name(m[2]);
    f.line = std::stoi(m[3]);
  } else if (std::regex_search(text, m, at_no_line)) {
    name = m[1];
  } else {
    return;
  }
  // Drop the parameter list, keeping template arguments.
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == '(' && depth == 0) {
      name.resize(i);
      break;
    }
  }
  f.kernel = trim(name);
}

// "and Read access at k(int *)+0xb0 in /x/f.cu:15 [384 hazards]" -> "and Read access at f.cu:15 [384 hazards]"
std::string simplify_locations(const std::string& text) {
  static const std::regex loc(R"( at [^ ].*?\+0x[0-9a-fA-F]+ in (?:[^ ]*/)?([^ /]+:[0-9]+))");
  return std::regex_replace(text, loc, " at $1");
}

bool is_headline(const std::string& body) {
  if (body.empty() || body[0] == ' ') return false;
  for (const char* skip :
       {"COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY", "LEAK SUMMARY", "Program hit",
        "Target application returned", "Saved host backtrace", "Host Frame", "No ", "Error: process"}) {
    if (starts_with(body, skip)) return false;
  }
  return true;
}
}  // namespace

std::vector<SanitizerFinding> parse_sanitizer_output(const std::string& tool, const std::string& text) {
  std::vector<SanitizerFinding> found;
  std::istringstream in(text);
  SanitizerFinding* current = nullptr;
  bool in_host_backtrace = false;
  for (std::string line; std::getline(in, line);) {
    if (!starts_with(line, kPrefix)) continue;
    const std::string body = line.substr(kPrefix.size());
    if (!body.empty() && body[0] != ' ' && !is_headline(body)) {
      current = nullptr;  // a summary or an API error: what follows belongs to no finding
      continue;
    }
    if (is_headline(body)) {
      found.push_back(SanitizerFinding{});
      current = &found.back();
      current->tool = tool;
      current->message = trim(body);
      if (starts_with(current->message, "Error: ")) current->message = current->message.substr(7);
      in_host_backtrace = false;
      // racecheck puts the first location on the headline: "Race reported between Write access at K+0x10 in f.cu:5"
      const size_t at = current->message.find(" at ");
      if (at != std::string::npos && current->message.find("+0x", at) != std::string::npos) {
        parse_location(current->message.substr(at + 4), *current);
        current->message = current->message.substr(0, at);
      }
      continue;
    }
    if (!current) continue;
    const std::string item = trim(body);
    if (starts_with(item, "Saved host backtrace") || starts_with(item, "Host Frame")) {
      in_host_backtrace = true;
      continue;
    }
    if (in_host_backtrace || item.empty()) continue;
    if (starts_with(item, "at ") && current->kernel.empty()) {
      parse_location(item.substr(3), *current);
    } else if (starts_with(item, "by thread ")) {
      current->where = item.substr(3);
    } else if (!starts_with(item, "Device Frame")) {
      current->detail += (current->detail.empty() ? "" : " ") + simplify_locations(item);
    }
  }
  // Collapse repeats: the same problem from many threads is one finding.
  std::vector<SanitizerFinding> merged;
  for (SanitizerFinding& f : found) {
    bool joined = false;
    for (SanitizerFinding& g : merged) {
      if (g.message == f.message && g.kernel == f.kernel && g.file == f.file && g.line == f.line) {
        ++g.count;
        joined = true;
        break;
      }
    }
    if (!joined) merged.push_back(std::move(f));
  }
  return merged;
}

std::string describe_finding(const SanitizerFinding& f) {
  std::string s = f.tool + ": " + f.message;
  if (!f.kernel.empty()) s += " in " + f.kernel;
  if (!f.file.empty()) s += " at " + f.file + ":" + std::to_string(f.line);
  if (!f.where.empty()) s += " (" + f.where + ")";
  if (!f.detail.empty()) s += "; " + f.detail;
  if (f.count > 1) s += " [" + std::to_string(f.count) + " times]";
  return s;
}

std::string sanitizer_incomplete(const std::string& tool, const std::string& text, int exit_code, int signal) {
  if (text.find(kPrefix + "ERROR SUMMARY:") != std::string::npos ||
      text.find(kPrefix + "RACECHECK SUMMARY:") != std::string::npos)
    return "";
  // The last few non-empty lines say why (e.g. "Error: Target application terminated before first
  // instrumented API call", or the loader's own message).
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!trim(line).empty()) lines.push_back(trim(line));
  std::string tail;
  for (size_t i = lines.size() > 3 ? lines.size() - 3 : 0; i < lines.size(); ++i)
    tail += (tail.empty() ? "" : " | ") + lines[i];
  std::string how =
      signal ? "was stopped by signal " + std::to_string(signal) : "exited with code " + std::to_string(exit_code);
  return tool + ": compute-sanitizer did not run to its summary (it " + how + "), so this tool's findings are " +
         "unknown; its last output: " + (tail.empty() ? "(none)" : tail);
}

}  // namespace gpulab::grade
