// Paths of the libraries programs are linked with (see audit_inputs.hpp).
#include "audit_inputs.hpp"

#include <filesystem>
#include <system_error>

#include "build_config.hpp"
#include "toolchain.hpp"

namespace gpulab::toolchain {
namespace fs = std::filesystem;

std::vector<std::string> emulator_runtime_libraries() {
  std::vector<std::string> libraries = {GPULAB_EMU_LINK_INPUTS};
  if (const std::string check = GPULAB_EMU_CHECK_LIBRARY; !check.empty()) libraries.push_back(check);
  return libraries;
}

std::string cuda_static_runtime() {
  const std::string folder = cuda_library_dir();
  if (folder.empty()) return {};
  const fs::path library = fs::path(folder) / "libcudart_static.a";
  std::error_code ec;
  return fs::exists(library, ec) ? library.string() : std::string();
}

std::string host_compiler() { return GPULAB_CXX_COMPILER; }

}  // namespace gpulab::toolchain
