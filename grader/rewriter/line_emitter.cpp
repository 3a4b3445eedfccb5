// The line-keeping text builder (see line_emitter.hpp).
#include "rewriter/line_emitter.hpp"

#include "rewriter/code_tokens.hpp"

#include <algorithm>

namespace gpulab::rewriter {

LineEmitter::LineEmitter(std::string_view source, std::string_view file_name)
    : source_(source), file_name_(escape_string_literal(file_name)) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\n') line_starts_.push_back(i + 1);
  }
  out_.reserve(source.size() + source.size() / 8);
}

int LineEmitter::line_of(std::size_t offset) const {
  return static_cast<int>(std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) - line_starts_.begin());
}

void LineEmitter::append(std::string_view s) {
  for (const char c : s) {
    out_ += c;
    if (c == '\n') {
      map_.push_back(believed_);
      ++believed_;
      at_line_start_ = true;
    } else {
      at_line_start_ = false;
    }
  }
}

void LineEmitter::sync(std::size_t offset) {
  const int line = line_of(offset);
  if (line == believed_) return;
  if (!at_line_start_) append("\n");
  append("#line " + std::to_string(line) + " \"" + file_name_ + "\"\n");
  believed_ = line;
}

void LineEmitter::copy(std::size_t begin, std::size_t end) {
  if (begin >= end) return;
  sync(begin);
  append(source_.substr(begin, end - begin));
}

void LineEmitter::blank(std::size_t begin, std::size_t end) {
  if (begin >= end) return;
  sync(begin);
  std::string s(source_.substr(begin, end - begin));
  for (char& c : s) {
    if (c != '\n' && c != '\r') c = ' ';
  }
  append(s);
}

void LineEmitter::text(std::string_view s) { append(s); }

void LineEmitter::line(std::string_view s) {
  if (!at_line_start_) append("\n");
  append(s);
  append("\n");
}

std::vector<int> LineEmitter::line_map() const {
  std::vector<int> map = map_;
  map.push_back(believed_);
  return map;
}

}  // namespace gpulab::rewriter
