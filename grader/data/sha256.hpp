// SHA-256 of a file or of bytes, as lowercase hex (OpenSSL).
#pragma once
#include <filesystem>
#include <string>

namespace gpulab {
std::string sha256_hex(const void* data, size_t bytes);
std::string sha256_file(const std::filesystem::path& path);  // throws std::runtime_error if unreadable
}  // namespace gpulab
