// Source lines: of places in a relocatable object, through binutils' addr2line and the object's
// DWARF line table (the emulator's objects have one, -gdwarf-4; nvcc's host code has none); and
// of lines in a preprocessed or rewritten source, through its `#line` / `# N "file"` markers.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::audit {

// "file.cu:12" for each offset of `section`: the innermost inlined frame outside the system's,
// CUDA's and the emulator's headers (else the innermost); "" where the debug info says nothing.
// Throws files::GraderError when addr2line cannot be run.
std::vector<std::string> object_source_lines(const std::filesystem::path& object, const std::string& section,
                                             const std::vector<uint64_t>& offsets);

// Where the lines of a text come from, by its line markers (`#line N "f"`, `# N "f" flags`).
class LineMarkers {
 public:
  LineMarkers(std::string_view text, std::string file);
  struct Origin {
    std::string file;
    int line = 0;
    bool system = false;  // a system header (flag 3 of a `# N "f" 3` marker)
  };
  Origin origin(int line) const;  // of the text's 1-based line
  // The file the first marker names (the original of a rewritten source), else the text's own.
  const std::string& first_file() const { return first_file_; }

 private:
  struct Marker {
    int at = 0;  // the marker's own line
    int line = 0;
    std::string file;
    bool system = false;
  };
  std::vector<Marker> markers_;
  std::string file_;
  std::string first_file_;
};

}  // namespace gpulab::audit
