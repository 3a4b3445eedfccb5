// nvcc --resource-usage for the occupancy's register limit (see kernel_registers.hpp).
#include "profile/kernel_registers.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <regex>
#include <sstream>

#include "process/run.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::profile {
namespace {

// "void scale<256>(float*, int)" -> "scale<256>"
std::string kernel_name(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  std::string text = status == 0 && d ? d.get() : mangled;
  if (const size_t paren = text.find('('); paren != std::string::npos) text.resize(paren);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<') ++depth;
    if (text[i] == '>') --depth;
    if (text[i] == ' ' && depth == 0) start = i + 1;
  }
  return text.substr(start);
}

}  // namespace

std::map<std::string, int> parse_ptxas_registers(const std::string& output) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex used(R"(Used (\d+) registers)");
  std::map<std::string, int> out;
  std::istringstream in(output);
  std::string line, current;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, entry)) {
      current = kernel_name(m[1]);
    } else if (!current.empty() && std::regex_search(line, m, used)) {
      const int n = std::stoi(m[1]);
      out[current] = n;
      const size_t bracket = current.find('<');
      if (bracket != std::string::npos) out.try_emplace(current.substr(0, bracket), n);
      current.clear();
    }
  }
  return out;
}

std::map<std::string, int> kernel_registers(const std::string& source, const std::string& arch,
                                            const std::vector<std::string>& include_dirs,
                                            const std::vector<std::string>& defines) {
  const std::string nvcc = toolchain::nvcc_path();
  if (nvcc.empty() || !std::filesystem::exists(nvcc)) return {};
  std::vector<std::string> argv{nvcc,
                                "-std=c++20",
                                "-O2",
                                "-arch=" + arch,
                                "--resource-usage",
                                "-c",
                                "-o",
                                "/dev/null",
                                "-I",
                                std::filesystem::path(source).parent_path().string()};
  for (const std::string& dir : include_dirs) argv.insert(argv.end(), {"-I", dir});
  for (const std::string& d : defines) argv.push_back("-D" + d);
  argv.push_back(source);
  process::ProcessOptions o;
  o.time_limit_s = 120;
  o.output_cap = 1 << 20;
  const process::ProcessResult r = process::run(argv, o);
  if (!r.started() || r.status() != 0) return {};
  return parse_ptxas_registers(r.output);
}

}  // namespace gpulab::profile
