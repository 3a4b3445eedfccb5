// The emulator's CUDA header precompiled beside gpulab's build (precompiled_header.hpp).
#include "precompiled_header.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <system_error>

#include "build_config.hpp"
#include "content_hash.hpp"
#include "files/temp_folder.hpp"
#include "process/run.hpp"
#include "toolchain_stamps.hpp"

namespace gpulab::toolchain {
namespace fs = std::filesystem;

namespace {
constexpr const char* kHeader = "gpulab/emu/cuda_emulation.hpp";

// Where the compiler looks for the precompiled form of kHeader in an -I folder.
fs::path precompiled_file(const fs::path& folder) { return folder / (std::string(kHeader) + ".gch"); }
}  // namespace

bool precompiled_header_enabled() {
#if defined(__GNUC__) && !defined(__clang__)
  const char* off = std::getenv("GPULAB_NO_PRECOMPILED_HEADER");
  return off == nullptr || *off == '\0' || std::string(off) == "0";
#else
  return false;
#endif
}

fs::path precompiled_headers_root() {
  // Beside the emulator's library, so that every grading with this gpulab shares them whatever its
  // GPULAB_CACHE (the tests give many gradings a cache of their own); the build cache where gpulab's
  // build folder cannot be written (an installation shared read-only).
  const fs::path beside = fs::path(GPULAB_EMU_LIBRARY).parent_path() / "precompiled-headers";
  std::error_code ec;
  fs::create_directories(beside, ec);
  if (!ec && access(beside.c_str(), W_OK | X_OK) == 0) return beside;
  return cache_directory() / "headers";
}

fs::path precompiled_header_folder(const std::vector<std::string>& options_before_header) {
  ContentHash hash;
  hash.add("precompiled emulator header 1").add(file_stamp(GPULAB_CXX_COMPILER)).add(emulator_headers_stamp());
  for (const std::string& option : options_before_header) hash.add(option);
  return precompiled_headers_root() / hash.hex();
}

bool ensure_precompiled_header(const std::vector<std::string>& options_before_header,
                               const CompileRunner& run_compiler) {
  const fs::path folder = precompiled_header_folder(options_before_header);
  std::error_code ec;
  if (fs::is_regular_file(precompiled_file(folder), ec)) return true;
  try {
    const fs::path building = folder.parent_path() / "building";
    fs::create_directories(building, ec);
    // Made in a folder of its own beside the finished ones, then renamed into place whole, so a
    // killed gpulab or another one making the same header at once never leaves half a file
    // (a killed one's folder is removed by the next gpulab that makes one).
    static const bool swept = (files::sweep_stale_temp_folders(building), true);
    (void)swept;
    files::TempFolder staging("header", building);
    chmod(staging.path().c_str(), 0755);  // as a cache folder (the sandbox's user reads it)
    const fs::path made = staging / "header.gch";
    std::vector<std::string> argv = options_before_header;
    argv.insert(argv.end(), {"-I", GPULAB_EMU_INCLUDE_DIR, "-x", "c++-header",
                             (fs::path(GPULAB_EMU_INCLUDE_DIR) / kHeader).string(), "-o", made.string()});
    const CompileJob job{argv, staging.path(), {GPULAB_EMU_INCLUDE_DIR}};
    const process::ProcessResult r = run_compiler ? run_compiler(job) : process::run(argv, {});
    if (!r.started() || r.status() != 0 || !fs::is_regular_file(made, ec)) return false;
    const fs::path target = precompiled_file(staging.path());
    fs::create_directories(target.parent_path(), ec);
    for (fs::path p = target.parent_path(); p != staging.path(); p = p.parent_path()) chmod(p.c_str(), 0755);
    fs::rename(made, target, ec);
    if (ec) return false;
    chmod(target.c_str(), 0644);             // read by every later compile, as whichever user the sandbox uses
    fs::rename(staging.path(), folder, ec);  // fails where another gpulab put its own there first
    if (!ec) staging.release();
  } catch (const std::exception&) {
    return false;  // the builds read the header itself
  }
  return fs::is_regular_file(precompiled_file(folder), ec);
}

}  // namespace gpulab::toolchain
