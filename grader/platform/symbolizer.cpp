// symbolizer_command(): addr2line or llvm-symbolizer (either may be versioned, as Debian's
// llvm-symbolizer-14), looked up on PATH.
#include "platform/symbolizer.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace gpulab::platform {
namespace {
bool on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "/usr/bin:/bin");
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    if (!folder.empty() && access((folder + "/" + name).c_str(), X_OK) == 0) return true;
  }
  return false;
}

bool is_llvm(const std::string& name) { return name.find("llvm-symbolizer") != std::string::npos; }

std::vector<std::string> command_for(const std::string& tool, const std::string& object) {
  std::vector<std::string> argv{tool};
  if (is_llvm(tool)) argv.push_back("--output-style=GNU");
  argv.insert(argv.end(), {"-e", object, "-i", "-f", "-C", "-a"});
  return argv;
}
}  // namespace

std::vector<std::string> symbolizer_command(const std::string& object, std::string& tried) {
  if (const char* chosen = std::getenv("GPULAB_SYMBOLIZER"); chosen && *chosen) {
    tried = std::string("GPULAB_SYMBOLIZER=") + chosen;
    return on_path(chosen) ? command_for(chosen, object) : std::vector<std::string>{};
  }
#if defined(__APPLE__)
  const char* candidates[] = {"llvm-symbolizer", "/opt/homebrew/opt/llvm/bin/llvm-symbolizer",
                              "/usr/local/opt/llvm/bin/llvm-symbolizer"};
#else
  const char* candidates[] = {"addr2line", "llvm-symbolizer", "llvm-symbolizer-16", "llvm-symbolizer-15",
                              "llvm-symbolizer-14"};
#endif
  tried.clear();
  for (const char* tool : candidates) {
    if (on_path(tool)) return command_for(tool, object);
    tried += (tried.empty() ? "" : ", ") + std::string(tool);
  }
  return {};
}

}  // namespace gpulab::platform
