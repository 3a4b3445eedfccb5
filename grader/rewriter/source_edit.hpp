// A replacement of one byte range of the source, and the function that applies a set of them. A
// replacement is built from literal text and sub-ranges of the original source; edits found inside
// those sub-ranges (a launch inside another launch's arguments, say) are applied there too.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::rewriter {

struct EditPart {
  bool from_source = false;
  std::string text;       // used when !from_source
  std::size_t begin = 0;  // source byte range, used when from_source
  std::size_t end = 0;

  static EditPart literal(std::string text) { return EditPart{false, std::move(text), 0, 0}; }
  static EditPart source(std::size_t begin, std::size_t end) { return EditPart{true, {}, begin, end}; }
};

struct SourceEdit {
  std::size_t begin = 0;  // source byte range that is replaced
  std::size_t end = 0;
  std::vector<EditPart> parts;
};

// Applies the edits to source. Edits must either nest (lie inside a from_source part of another edit)
// or not overlap at all; an edit nested anywhere else in another edit's range is dropped with it.
std::string apply_edits(std::string_view source, std::vector<SourceEdit> edits);

}  // namespace gpulab::rewriter
