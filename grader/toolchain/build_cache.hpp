// The build cache's entries (toolchain.cpp's internal seam): a folder per build, named by a
// hash of everything its output depends on, filled in a staging folder beside the entries and
// renamed into place with a stamp once complete, so that concurrent gpulabs (a batch's workers,
// two builds of one grading) never see half an entry.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "compile_command.hpp"
#include "files/temp_folder.hpp"
#include "toolchain.hpp"

namespace gpulab::toolchain {

// The complete entry's build, or nullopt when the entry is missing, incomplete or damaged.
std::optional<BuildResult> read_cache_entry(const std::filesystem::path& entry, const std::string& artifact);
// A folder to build in, beside the cache's entries (so the rename into place stays on one file
// system); folders left by a killed gpulab are removed first.
files::TempFolder staging_folder();
// Stamps the finished build and renames its folder into place as `entry`; returns the artifact's
// path there. Another gpulab may have finished the same build first: then its entry is used.
std::filesystem::path commit_cache_entry(files::TempFolder staging, const std::filesystem::path& entry,
                                         const std::string& artifact, const BuildResult& built);
// The name of the build's cache entry, from the original sources (never their rewrite: a hit
// costs no rewriting), their local headers, the options and the toolchain.
std::string cache_key(const BuildSources& s, const BuildOptions& options);

}  // namespace gpulab::toolchain
