// Finding a program's own headers (for the build cache) and the emulator build's rewritten copies
// of them (toolchain/local_headers.hpp).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "files/temp_folder.hpp"
#include "rewriter/cuda_rewriter.hpp"
#include "toolchain/local_headers.hpp"

namespace fs = std::filesystem;
using gpulab::toolchain::find_local_headers;
using gpulab::toolchain::HeaderSearch;
using gpulab::toolchain::LocalHeader;
using gpulab::toolchain::rewritten_header_flags;

namespace {
void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}
std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
std::vector<fs::path> paths(const std::vector<LocalHeader>& headers) {
  std::vector<fs::path> out;
  for (const auto& h : headers) out.push_back(h.path);
  return out;
}
}  // namespace

TEST_CASE("headers are found next to the including file, then in the -I folders, recursively") {
  const gpulab::files::TempFolder tmp("headers");
  const fs::path root = tmp.path();
  write(root / "src/main.cu",
        "#include \"sub/a.cuh\"\n  #  include <b.h>\n#include <vector>\n#include \"missing.h\"\n");
  write(root / "src/sub/a.cuh", "#include \"near.h\"\n#include \"b.h\"\n");
  write(root / "src/sub/near.h", "// next to a.cuh\n");
  write(root / "inc/b.h", "#include \"a.cuh\"\n");  // not next to b.h, nor in the -I folders
  write(root / "inc/near.h", "// shadowed by src/sub/near.h for a.cuh\n");
  const std::string main_text = read(root / "src/main.cu");
  const HeaderSearch search{{root / "inc", root / "src"}, {}};
  CHECK(paths(find_local_headers({root / "src/main.cu"}, {main_text}, search)) ==
        std::vector<fs::path>{root / "src/sub/a.cuh", root / "inc/b.h", root / "src/sub/near.h"});
}

TEST_CASE("headers under an outside folder are not the program's and are not followed") {
  const gpulab::files::TempFolder tmp("headers");
  const fs::path root = tmp.path();
  write(root / "emu/cuda_runtime.h", "#include \"emu_detail.h\"\n");
  write(root / "emu/emu_detail.h", "");
  write(root / "src/cuda_runtime.h", "// a program's own copy: the emulator's comes first\n");
  write(root / "src/k.cuh", "");
  const std::string text = "#include <cuda_runtime.h>\n#include \"k.cuh\"\n";
  const HeaderSearch search{{root / "emu", root / "src"}, {root / "emu"}};
  CHECK(paths(find_local_headers({root / "src/main.cu"}, {text}, search)) == std::vector<fs::path>{root / "src/k.cuh"});
}

TEST_CASE("headers without CUDA constructs are used as they are") {
  const gpulab::files::TempFolder tmp("headers");
  const std::vector<LocalHeader> headers{{tmp.path() / "src/plain.h", "inline int twice(int x) { return 2 * x; }\n"}};
  const auto flags = rewritten_header_flags(headers, {tmp.path() / "src"}, tmp.path() / "mirror");
  CHECK(flags == std::vector<std::string>{"-I", (tmp.path() / "src").string()});
  CHECK_FALSE(fs::exists(tmp.path() / "mirror"));
}

TEST_CASE("when one header needs rewriting, every header is copied rewritten, with its own #line") {
  const gpulab::files::TempFolder tmp("headers");
  const fs::path src = tmp.path() / "src", mirror = tmp.path() / "mirror";
  const std::string kernel = "__global__ void k() {\n  __shared__ int s[4];\n  s[0] = 1;\n}\n";
  const std::vector<LocalHeader> headers{{src / "sub/k.cuh", kernel}, {src / "plain.h", "int x;\n"}};
  const auto flags = rewritten_header_flags(headers, {src}, mirror);
  const fs::path copy = mirror / (src / "sub/k.cuh").relative_path();
  CHECK(flags == std::vector<std::string>{"-I", (mirror / src.relative_path()).string(), "-I", src.string(),
                                          "-idirafter", (src / "sub").string(), "-idirafter", src.string()});
  CHECK(read(copy) == gpulab::rewriter::rewrite_cuda_source(kernel, (src / "sub/k.cuh").string()));
  CHECK(read(copy).rfind("#line 1 \"" + (src / "sub/k.cuh").string() + "\"\n", 0) == 0);
  CHECK(read(mirror / (src / "plain.h").relative_path()) == "#line 1 \"" + (src / "plain.h").string() + "\"\nint x;\n");
}

TEST_CASE("a header the rewriter cannot rewrite is an error naming the header's line") {
  const std::vector<LocalHeader> headers{{"/tmp/x/bad.cuh", "\n__global__ void k() {\n  __shared__ int s = 0;\n}\n"}};
  CHECK_THROWS_WITH(rewritten_header_flags(headers, {"/tmp/x"}, "/tmp/x-mirror"), Catch::Contains("/tmp/x/bad.cuh:3:"));
}
