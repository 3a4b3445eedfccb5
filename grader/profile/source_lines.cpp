// The symbolizer (addr2line or llvm-symbolizer: platform/symbolizer.hpp), once per object for all
// its addresses (see source_lines.hpp).
#include "profile/source_lines.hpp"

#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "platform/symbolizer.hpp"
#include "process/run.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::profile {

std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool is_library_file(const std::string& file) {
  static const std::string emu = toolchain::emu_include_dir();
  const auto under = [&](const std::string& dir) { return !dir.empty() && file.rfind(dir, 0) == 0; };
  return file.empty() || file == "??" || under(emu) || under("/usr/include/") || under("/usr/lib/") ||
         under("/usr/local/include/");
}

std::map<uintptr_t, SourceLine> source_lines(const std::string& object, const std::vector<uintptr_t>& addresses) {
  std::map<uintptr_t, SourceLine> out;
  if (addresses.empty()) return out;
  std::string tried;
  std::vector<std::string> argv = platform::symbolizer_command(object, tried);  // addr2line or llvm-symbolizer
  if (argv.empty()) {
    throw std::runtime_error(
        "cannot map the profile's code addresses to source lines: no symbolizer found (looked for " + tried +
        "); install binutils (addr2line) or LLVM (llvm-symbolizer)");
  }
  for (uintptr_t a : addresses) argv.push_back(fmt::format("{:#x}", a));
  process::ProcessOptions o;
  o.search_path = true;
  o.time_limit_s = 60;
  const process::ProcessResult r = process::run(argv, o);
  if (!r.started() || r.status() != 0) {
    throw std::runtime_error("cannot map the profile's code addresses to source lines: " + argv.front() + " " +
                             (r.started() ? "failed: " + r.output : "did not start (" + r.spawn_error + ")"));
  }
  // Output: for each address "0x...", then (function, file:line) pairs from the innermost
  // inlined frame outwards.
  std::istringstream in(r.output);
  std::string text;
  uintptr_t current = 0;
  bool have_current = false, chosen = false;
  std::vector<SourceLine> frames;
  const auto finish = [&] {
    if (!have_current) return;
    SourceLine pick;
    for (const SourceLine& f : frames) {
      if (!is_library_file(f.file)) {
        pick = f;
        chosen = true;
        break;
      }
    }
    if (!chosen && !frames.empty()) pick = frames.back();
    out[current] = pick;
  };
  while (std::getline(in, text)) {
    if (text.rfind("0x", 0) == 0 && text.find(' ') == std::string::npos && text.find(':') == std::string::npos) {
      finish();
      current = std::stoull(text, nullptr, 16);
      have_current = true;
      chosen = false;
      frames.clear();
      continue;
    }
    std::string location;
    if (!std::getline(in, location)) break;
    SourceLine f;
    f.function = text;
    const size_t colon = location.rfind(':');
    f.file = location.substr(0, colon);
    if (colon != std::string::npos) {
      try {
        f.line = std::stoi(location.substr(colon + 1));  // "12 (discriminator 3)" reads as 12
      } catch (const std::exception&) {
        f.line = 0;
      }
    }
    frames.push_back(std::move(f));
  }
  finish();
  return out;
}

}  // namespace gpulab::profile
