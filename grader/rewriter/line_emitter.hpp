// Builds a rewritten text from pieces of the original source and new text, keeping what the
// compiler believes about lines right: when a piece of the source does not follow on from the
// line the output is at (a function body written twice, a definition added on a line of its
// own), a `#line N "file"` directive goes before it. It also records, for every output line, the
// source line the compiler gives it, so that a later step's message can name the source's line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::rewriter {

class LineEmitter {
 public:
  LineEmitter(std::string_view source, std::string_view file_name);

  // Source bytes [begin, end), verbatim, preceded by a #line directive when needed.
  void copy(std::size_t begin, std::size_t end);
  // The line breaks of source bytes [begin, end) (everything else a space), so that what follows
  // keeps its line.
  void blank(std::size_t begin, std::size_t end);
  // New text; its line breaks move the output on without a matching source line.
  void text(std::string_view s);
  // A line of new text of its own (a directive): starts a new line first where needed.
  void line(std::string_view s);

  const std::string& output() const { return out_; }
  // Element k: the source line (1-based) of output line k + 1.
  std::vector<int> line_map() const;

 private:
  void sync(std::size_t offset);
  void append(std::string_view s);
  int line_of(std::size_t offset) const;

  std::string_view source_;
  std::string file_name_;
  std::vector<std::size_t> line_starts_;
  std::string out_;
  int believed_ = 1;  // the line the compiler gives the output's current line
  bool at_line_start_ = true;
  std::vector<int> map_;  // the believed line of each finished output line
};

}  // namespace gpulab::rewriter
