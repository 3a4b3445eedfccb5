// Writing a file so that a reader (or a crash, or Ctrl-C) sees either the old
// content or the new, never half of it: a temporary file in the same folder,
// flushed to disk, then renamed over the target. Every file that another
// process or a later run reads is written this way (results, records, the
// build cache's stamps, manifests); JSON is written as valid UTF-8 whatever
// bytes its strings hold (utf8_text.hpp).
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpulab::files {

// Throws GraderError (grader_error.hpp) naming the file and the reason when it cannot be written.
// A target that is a device, pipe or socket (`--out /dev/null`) is written into, never replaced.
void write_file_atomically(const std::filesystem::path& target, std::string_view bytes);
// `value` dumped with `indent` (invalid UTF-8 in its strings replaced by U+FFFD) and a newline.
void write_json_atomically(const std::filesystem::path& target, const nlohmann::json& value, int indent = 1);
std::string read_whole_file(const std::filesystem::path& path);  // throws GraderError if unreadable
// Removes the partial files (`NAME.tmp-PID-N`) that a killed process (SIGKILL: no chance to tidy
// up) left in `folder`; those of running processes stay. Returns how many were removed.
int remove_stale_partial_files(const std::filesystem::path& folder);

}  // namespace gpulab::files
