// Writing a file so that a reader (or a crash, or Ctrl-C) sees either the old
// content or the new, never half of it: a temporary file in the same folder,
// flushed to disk, then renamed over the target.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace gpulab::batch {

// Throws std::runtime_error naming the file and the reason when it cannot be written.
void write_file_atomically(const std::filesystem::path& target, std::string_view bytes);
std::string read_whole_file(const std::filesystem::path& path);  // throws std::runtime_error if unreadable

}  // namespace gpulab::batch
