// A program's own headers: the files its sources #include from their folders and the -I
// folders, found as the compiler finds them. The build cache hashes them (editing a header
// rebuilds), and the emulator build compiles rewritten copies of them, so `__shared__`
// variables and `<<<>>>` launches inside a header work as they do in a .cu file.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "rewriter/cuda_rewriter.hpp"

namespace gpulab::toolchain {

struct LocalHeader {
  std::filesystem::path path;  // absolute, lexically normal
  std::string text;
};

// Where #include looks, in the compiler's order: `dirs` are the -I folders; a header found
// under one of `outside` (the emulator's headers, the system's, CUDA's) is not the program's
// and is neither returned nor read further.
struct HeaderSearch {
  std::vector<std::filesystem::path> dirs;
  std::vector<std::filesystem::path> outside;
};

// A build's include folders in the compiler's order: the -I folders, then each source's own
// folder (as the emulator build and nvcc search them), absolute, each once.
std::vector<std::filesystem::path> include_folders(const std::vector<std::string>& include_dirs,
                                                   const std::vector<std::filesystem::path>& sources);

// The search of a build over `folders`: for the emulator, its own headers come first (they win
// over a program's cuda_runtime.h); those, the system's and CUDA's headers are outside.
HeaderSearch program_header_search(bool emulator, const std::vector<std::filesystem::path>& folders);

// Every header the sources include, recursively, each once, in the order first met.
// `#include "x"` is looked up next to the including file, then in search.dirs; `#include <x>`
// in search.dirs only. Directives are read without evaluating #if (an include in an inactive
// branch counts if the file exists) and includes named by a macro are not followed.
std::vector<LocalHeader> find_local_headers(const std::vector<std::filesystem::path>& sources,
                                            const std::vector<std::string>& texts, const HeaderSearch& search);

// The headers that are, after following symbolic links, inside one of `folders`: those a
// sandboxed compile could read itself, so that a copy never shows it a file it could not read.
std::vector<LocalHeader> headers_inside(const std::vector<LocalHeader>& headers,
                                        const std::vector<std::filesystem::path>& folders);

// The emulator build's copies of the headers: when one of them holds something the rewriter
// changes, every header is written rewritten (each starting with `#line 1 "<its own path>"`, so
// errors and diagnostics name the original file and line) under `root`, at its own absolute
// path, so that includes between them resolve as between the originals. Returns the -I / -idirafter
// options that put the copies first: for each folder in `dirs`, `-I root/DIR -I DIR`; then
// `-idirafter` each copied header's own folder, for the includes this search cannot follow.
// Without such a header nothing is written and the result is plain `-I DIR` for each folder.
// Throws rewriter::RewriteError naming the header's line.
std::vector<std::string> rewritten_header_flags(const std::vector<LocalHeader>& headers,
                                                const std::vector<std::filesystem::path>& dirs,
                                                const std::filesystem::path& root,
                                                const rewriter::RewriteOptions& options = {});

}  // namespace gpulab::toolchain
