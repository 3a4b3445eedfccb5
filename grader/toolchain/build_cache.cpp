// Implementation of build_cache.hpp.
#include "build_cache.hpp"

#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <system_error>

#include "build_config.hpp"
#include "content_hash.hpp"
#include "files/atomic_file.hpp"
#include "files/grader_error.hpp"
#include "toolchain_stamps.hpp"

namespace gpulab::toolchain {
namespace fs = std::filesystem;

namespace {
// The stamp that makes a cache folder a complete entry; it keeps the compiler's warnings, so a
// cached build shows them as a fresh one does.
constexpr const char* kStamp = "complete.json";

// What the build's output depends on besides its sources: the compiler, the emulator's runtime
// and headers and, since the emulator compiles rewritten sources, the rewriter linked into
// this gpulab (a rebuilt rewriter has a new stamp, so an older rewrite is never reused).
void hash_toolchain(ContentHash& hash, const BuildOptions& options) {
  hash.add(GPULAB_VERSION).add(backend_name(options.backend)).add(options.race_check ? "race" : "plain");
  hash.add(options.cuda_arch).add(file_stamp(GPULAB_EMU_LIBRARY)).add(file_stamp(GPULAB_EMU_CHECK_LIBRARY));
  if (options.backend == Backend::emu) {
    hash.add(emulator_headers_stamp()).add(file_stamp(GPULAB_REWRITER_LIBRARY)).add(file_stamp(GPULAB_CXX_COMPILER));
    for (const char* input : {GPULAB_EMU_LINK_INPUTS}) hash.add(file_stamp(input));  // the platform library, Boost
  } else {
    hash.add(file_stamp(GPULAB_NVCC));
  }
}

}  // namespace

std::optional<BuildResult> read_cache_entry(const fs::path& entry, const std::string& artifact) {
  std::error_code ec;
  const fs::path program = entry / artifact;
  if (!fs::is_regular_file(entry / kStamp, ec) || !fs::is_regular_file(program, ec) ||
      fs::file_size(program, ec) == 0) {
    return std::nullopt;
  }
  try {
    const nlohmann::json stamp = nlohmann::json::parse(files::read_whole_file(entry / kStamp));
    BuildResult r;
    r.ok = true;
    r.cached = true;
    r.executable = program;
    r.compiler_output = stamp.value("compiler_output", std::string());
    r.command = stamp.value("command", std::string());
    return r;
  } catch (const std::exception&) {
    return std::nullopt;  // a damaged stamp: build again
  }
}

files::TempFolder staging_folder() {
  const fs::path building = cache_directory() / "building";
  std::error_code ec;
  fs::create_directories(building, ec);
  if (ec) {
    throw files::GraderError("cannot create the build cache's folder " + building.string() + " (" + ec.message() +
                             "): set GPULAB_CACHE to a writable folder");
  }
  static const bool swept = (files::sweep_stale_temp_folders(building), true);
  (void)swept;
  files::TempFolder staging("build", building);
  chmod(staging.path().c_str(), 0755);  // as a cache folder (the sandbox's user reads it)
  return staging;
}

fs::path commit_cache_entry(files::TempFolder staging, const fs::path& entry, const std::string& artifact,
                            const BuildResult& built) {
  files::write_json_atomically(staging / kStamp,
                               {{"compiler_output", built.compiler_output}, {"command", built.command}});
  std::error_code ec;
  fs::rename(staging.path(), entry, ec);
  if (ec && !read_cache_entry(entry, artifact)) {
    fs::remove_all(entry, ec);  // an incomplete entry (an older gpulab's, or damaged): replaced
    fs::rename(staging.path(), entry, ec);
  }
  if (!ec) staging.release();
  if (!read_cache_entry(entry, artifact)) {
    throw files::GraderError("cannot put a build into the cache at " + entry.string() + " (" + ec.message() +
                             "): check that GPULAB_CACHE is writable and the disk is not full");
  }
  return entry / artifact;
}

std::string cache_key(const BuildSources& s, const BuildOptions& options) {
  ContentHash hash;
  hash_toolchain(hash, options);
  for (size_t i = 0; i < s.paths.size(); ++i) hash.add(s.paths[i].string()).add(s.texts[i]);
  // So that editing a header the program includes (next to a source or in an -I folder) rebuilds.
  for (const LocalHeader& h : s.headers) hash.add(h.path.string()).add(h.text);
  for (const auto& lib : options.link_inputs) hash.add(file_stamp(lib.c_str()));
  for (const auto& lib : options.whole_archives) hash.add("whole:" + file_stamp(lib.c_str()));
  // The command itself (flags, include folders, libraries, the kind of artifact), in a folder
  // named the same for every build.
  for (const std::string& arg : compile_command(s, options, "@build@", plain_include_flags(s))) hash.add(arg);
  return hash.hex();
}

}  // namespace gpulab::toolchain
