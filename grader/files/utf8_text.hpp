// Text from outside the grader (program and compiler output, file and folder
// names, diagnostics) may hold any bytes; what enters a result must be valid
// UTF-8, or no JSON library will write it. These make it so: invalid bytes
// become U+FFFD (in output) or a visible \xNN (in names, so that two names
// stay apart), and text is cut on character boundaries.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gpulab::files {

bool is_valid_utf8(std::string_view text);
// Each byte that does not start a valid UTF-8 sequence (overlong forms, surrogates and
// code points above U+10FFFF included) becomes U+FFFD.
std::string valid_utf8(std::string_view text);
// The same, with each such byte written as \xNN, and a backslash as \\ only where it would be
// taken for one of those (so a valid name reads as it is).
std::string escaped_name(std::string_view name);
// At most `max_bytes` bytes, never ending inside a multi-byte character.
std::string cut_utf8(std::string_view text, size_t max_bytes);
// nlohmann's dump with invalid UTF-8 in strings replaced by U+FFFD instead of an exception.
std::string dump_json(const nlohmann::json& value, int indent = -1);

}  // namespace gpulab::files
