// Stamps of the toolchain's files for the cache keys (toolchain_stamps.hpp).
#include "toolchain_stamps.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

#include "build_config.hpp"

namespace gpulab::toolchain {
namespace fs = std::filesystem;

std::string file_stamp(const char* path) {
  std::error_code ec;
  const auto t = fs::last_write_time(path, ec);
  const auto size = fs::file_size(path, ec);
  return std::string(path) + "@" + std::to_string(t.time_since_epoch().count()) + ":" + std::to_string(size);
}

const std::string& emulator_headers_stamp() {
  static const std::string stamp = [] {
    std::vector<std::string> stamps;
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(GPULAB_EMU_INCLUDE_DIR, ec))
      if (e.is_regular_file(ec)) stamps.push_back(file_stamp(e.path().c_str()));
    std::sort(stamps.begin(), stamps.end());
    std::string all;
    for (const std::string& s : stamps) all += s + "\n";
    return all;
  }();
  return stamp;
}

}  // namespace gpulab::toolchain
