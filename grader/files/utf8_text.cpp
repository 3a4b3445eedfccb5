// Implementation of utf8_text.hpp (the rules of RFC 3629, section 4).
#include "files/utf8_text.hpp"

#include <fmt/format.h>

namespace gpulab::files {
namespace {
// The length of the valid UTF-8 sequence at text[i], or 0 if none starts there.
size_t sequence_length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // no overlong forms
    if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

template <typename Invalid> std::string rewrite(std::string_view text, Invalid&& invalid) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const size_t n = sequence_length(text, i);
    if (n == 0) {
      invalid(out, static_cast<unsigned char>(text[i]));
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}
}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t n = sequence_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string valid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  return rewrite(text, [](std::string& out, unsigned char) { out += "\xEF\xBF\xBD"; });
}

std::string escaped_name(std::string_view name) {
  if (is_valid_utf8(name) && name.find("\\x") == std::string_view::npos) return std::string(name);
  std::string out;
  for (size_t i = 0; i < name.size();) {
    const size_t n = sequence_length(name, i);
    if (n == 0) {
      out += fmt::format("\\x{:02X}", static_cast<unsigned char>(name[i]));
      ++i;
    } else if (name[i] == '\\' && i + 1 < name.size() && name[i + 1] == 'x') {
      out += "\\\\";  // a literal "\x" in a valid name must not read as an escape
      ++i;
    } else {
      out.append(name.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string cut_utf8(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t end = max_bytes;
  // Back up over continuation bytes to the start of the character the cut falls in.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

std::string dump_json(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace gpulab::files
