// Applies SourceEdits, recursing into the source sub-ranges that an edit keeps.
#include "rewriter/source_edit.hpp"

#include <algorithm>

namespace gpulab::rewriter {
namespace {

class Renderer {
 public:
  Renderer(std::string_view source, std::vector<SourceEdit> edits) : source_(source), edits_(std::move(edits)) {
    std::stable_sort(edits_.begin(), edits_.end(),
                     [](const SourceEdit& a, const SourceEdit& b) { return a.begin < b.begin; });
  }

  void render(std::size_t begin, std::size_t end, std::string& out) const {
    std::size_t pos = begin;
    auto it = std::lower_bound(edits_.begin(), edits_.end(), begin,
                               [](const SourceEdit& e, std::size_t offset) { return e.begin < offset; });
    for (; it != edits_.end() && it->begin < end; ++it) {
      if (it->begin < pos || it->end > end) continue;  // inside an edit already applied / straddling
      out.append(source_.substr(pos, it->begin - pos));
      for (const EditPart& part : it->parts) {
        if (part.from_source) {
          render(part.begin, part.end, out);
        } else {
          out += part.text;
        }
      }
      pos = it->end;
    }
    out.append(source_.substr(pos, end - pos));
  }

 private:
  std::string_view source_;
  std::vector<SourceEdit> edits_;
};

}  // namespace

std::string apply_edits(std::string_view source, std::vector<SourceEdit> edits) {
  std::string out;
  out.reserve(source.size() + source.size() / 4);
  Renderer(source, std::move(edits)).render(0, source.size(), out);
  return out;
}

}  // namespace gpulab::rewriter
