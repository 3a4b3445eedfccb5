// Implementation of state_sections.hpp: readelf lists the object's sections, objcopy renames the
// writable ones into a temporary file that is then renamed into place (graders building the same
// object at once agree on its content).
#include "toolchain/state_sections.hpp"

#include <unistd.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "process/run.hpp"

namespace gpulab::toolchain {
namespace fs = std::filesystem;

namespace {
bool writable_data(const std::string& name) {
  const auto starts = [&](const char* p) { return name.rfind(p, 0) == 0; };
  if (starts(".data.rel.ro")) return false;
  return name == ".data" || name == ".bss" || starts(".data.") || starts(".bss.");
}

// The names of the object's sections, from `readelf -SW`.
std::set<std::string> section_names(const fs::path& object) {
  process::ProcessOptions o;
  o.search_path = true;
  const process::ProcessResult r = process::run({"readelf", "-SW", object.string()}, o);
  std::set<std::string> names;
  if (!r.started() || r.exit_code != 0) return names;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    const size_t close = line.find(']');
    if (line.find('[') == std::string::npos || close == std::string::npos) continue;
    std::istringstream fields(line.substr(close + 1));
    std::string name;
    if (fields >> name) names.insert(name);
  }
  return names;
}
}  // namespace

fs::path object_with_state_sections(const fs::path& object) {
  const fs::path renamed = fs::path(object).replace_extension(".state.o");
  std::error_code ec;
  if (fs::exists(renamed, ec) && fs::last_write_time(renamed, ec) >= fs::last_write_time(object, ec)) return renamed;
  std::vector<std::string> argv = {"objcopy"};
  for (const std::string& name : section_names(object)) {
    if (!writable_data(name)) continue;
    argv.push_back("--rename-section");
    argv.push_back(name + "=" + (name.rfind(".bss", 0) == 0 ? "gpulab_submission_bss" : "gpulab_submission_data"));
  }
  const fs::path partial = renamed.string() + ".partial" + std::to_string(getpid());
  argv.push_back(object.string());
  argv.push_back(partial.string());
  process::ProcessOptions o;
  o.search_path = true;
  const process::ProcessResult r = process::run(argv, o);
  if (!r.started() || r.exit_code != 0) {
    fs::remove(partial, ec);
    return object;
  }
  fs::rename(partial, renamed, ec);
  if (ec) {
    fs::remove(partial, ec);
    return fs::exists(renamed, ec) ? renamed : object;
  }
  return renamed;
}

}  // namespace gpulab::toolchain
