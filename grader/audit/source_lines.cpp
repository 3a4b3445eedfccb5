// Source lines of object places and of marked texts (see source_lines.hpp).
#include "audit/source_lines.hpp"

#include <cstdio>
#include <sstream>

#include "files/grader_error.hpp"
#include "process/run.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::audit {
namespace fs = std::filesystem;

namespace {
// A frame inside headers that are not the program's own: the system's, CUDA's, the emulator's.
bool outside_program(const std::string& file) {
  static const std::string emulator = toolchain::emu_include_dir();
  return file.rfind("/usr/", 0) == 0 || file.rfind("/opt/", 0) == 0 ||
         (!emulator.empty() && file.rfind(emulator, 0) == 0) || file.find("/cuda/") != std::string::npos ||
         file.rfind("??", 0) == 0;
}

// "/path/file.cu:12 (discriminator 3)" -> "file.cu:12"; "" for "??:0" and "??:?".
std::string short_place(std::string frame) {
  if (const size_t d = frame.find(" (discriminator"); d != std::string::npos) frame.erase(d);
  const size_t colon = frame.rfind(':');
  if (colon == std::string::npos || frame.rfind("??", 0) == 0) return {};
  const std::string line = frame.substr(colon + 1);
  if (line.empty() || line == "?" || line == "0") return {};
  return fs::path(frame.substr(0, colon)).filename().string() + ":" + line;
}
}  // namespace

std::vector<std::string> object_source_lines(const fs::path& object, const std::string& section,
                                             const std::vector<uint64_t>& offsets) {
  std::vector<std::string> places(offsets.size());
  if (offsets.empty()) return places;
  std::vector<std::string> argv = {"addr2line", "-e", object.string(), "-j", section, "-a", "-p", "-i"};
  for (const uint64_t offset : offsets) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(offset));
    argv.push_back(hex);
  }
  process::ProcessOptions options;
  options.search_path = true;
  options.time_limit_s = 60;
  const process::ProcessResult p = process::run(argv, options);
  if (!p.started()) {
    throw files::GraderError("the audit cannot run addr2line: " + p.spawn_error +
                             "; install binutils (it provides addr2line, nm and objdump)");
  }
  if (p.status() != 0) return places;  // no line table for this section: the callers name the function
  // Each address: "0x...: FILE:LINE", then " (inlined by) FILE:LINE" for each caller it was inlined into.
  std::istringstream lines(p.output);
  int index = -1;
  std::vector<std::string> frames;
  const auto settle = [&] {
    if (index < 0 || static_cast<size_t>(index) >= places.size()) return;
    for (const std::string& f : frames) {
      if (!outside_program(f)) {
        places[index] = short_place(f);
        return;
      }
    }
    places[index] = frames.empty() ? std::string() : short_place(frames.front());
  };
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("0x", 0) == 0 && line.find(": ") != std::string::npos) {
      settle();
      ++index;
      frames = {line.substr(line.find(": ") + 2)};
    } else if (const size_t by = line.find("(inlined by) "); by != std::string::npos) {
      frames.push_back(line.substr(by + 13));
    }
  }
  settle();
  return places;
}

LineMarkers::LineMarkers(std::string_view text, std::string file) : file_(std::move(file)), first_file_(file_) {
  int number = 0;
  bool first = true;
  for (size_t start = 0; start <= text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    ++number;
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    const size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string_view::npos || line[hash] != '#') continue;
    std::string rest(line.substr(hash + 1));
    std::istringstream in(rest);
    std::string word;
    in >> word;
    if (word == "line") in >> word;
    if (word.empty() || word.find_first_not_of("0123456789") != std::string::npos) continue;
    Marker m;
    m.at = number;
    m.line = std::stoi(word);
    const size_t open = rest.find('"'), close = rest.rfind('"');
    if (open != std::string::npos && close > open) {
      m.file = rest.substr(open + 1, close - open - 1);
      std::istringstream flags(rest.substr(close + 1));
      for (int flag; flags >> flag;) m.system = m.system || flag == 3;
    } else {
      m.file = markers_.empty() ? file_ : markers_.back().file;
    }
    if (first && open != std::string::npos) first_file_ = m.file;
    first = first && open == std::string::npos;
    markers_.push_back(m);
  }
}

LineMarkers::Origin LineMarkers::origin(int line) const {
  const Marker* last = nullptr;
  for (const Marker& m : markers_) {
    if (m.at >= line) break;
    last = &m;
  }
  if (!last) return {file_, line, false};
  return {last->file, last->line + (line - last->at - 1), last->system};
}

}  // namespace gpulab::audit
