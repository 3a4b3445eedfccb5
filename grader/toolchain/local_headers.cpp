// Finding a program's own headers and writing their rewritten copies for the emulator build.
#include "toolchain/local_headers.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "build_config.hpp"
#include "rewriter/cuda_rewriter.hpp"

namespace gpulab::toolchain {
namespace fs = std::filesystem;

namespace {
struct Include {
  std::string name;
  bool quoted;  // "name" rather than <name>
};

// The #include directives of a text, one per line (`#  include "x"`, `#include<x>`).
std::vector<Include> includes_of(std::string_view text) {
  std::vector<Include> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    auto skip_blanks = [&line] {
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    };
    skip_blanks();
    if (line.empty() || line.front() != '#') continue;
    line.remove_prefix(1);
    skip_blanks();
    if (line.substr(0, 7) != "include") continue;
    line.remove_prefix(7);
    skip_blanks();
    if (line.empty() || (line.front() != '"' && line.front() != '<')) continue;  // include_next, a macro
    const char close = line.front() == '"' ? '"' : '>';
    const size_t stop = line.find(close, 1);
    if (stop == std::string_view::npos || stop == 1) continue;
    out.push_back({std::string(line.substr(1, stop - 1)), close == '"'});
  }
  return out;
}

bool is_under(const fs::path& file, const fs::path& dir) {
  const fs::path rel = file.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the header '" + p.string() + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Where the compiler finds `inc` included from `from`: the first file that exists.
fs::path resolve(const Include& inc, const fs::path& from, const HeaderSearch& search) {
  std::error_code ec;
  auto found = [&ec](const fs::path& p) { return fs::is_regular_file(p, ec); };
  const fs::path name(inc.name);
  if (name.is_absolute()) return found(name) ? name.lexically_normal() : fs::path();
  if (inc.quoted && found(from.parent_path() / name)) return (from.parent_path() / name).lexically_normal();
  for (const fs::path& dir : search.dirs) {
    if (found(dir / name)) return (dir / name).lexically_normal();
  }
  return {};
}

fs::path mirror_of(const fs::path& root, const fs::path& original) { return root / original.relative_path(); }
}  // namespace

std::vector<fs::path> include_folders(const std::vector<std::string>& include_dirs,
                                      const std::vector<fs::path>& sources) {
  std::vector<fs::path> folders;
  auto add = [&folders](const fs::path& dir) {
    const fs::path normal = fs::absolute(dir).lexically_normal();
    if (std::find(folders.begin(), folders.end(), normal) == folders.end()) folders.push_back(normal);
  };
  for (const std::string& dir : include_dirs) add(dir);
  for (const fs::path& source : sources) add(fs::absolute(source).parent_path());
  return folders;
}

HeaderSearch program_header_search(bool emulator, const std::vector<fs::path>& folders) {
  HeaderSearch search;
  if (emulator) search.dirs.push_back(GPULAB_EMU_INCLUDE_DIR);
  search.dirs.insert(search.dirs.end(), folders.begin(), folders.end());
  search.outside = {GPULAB_EMU_INCLUDE_DIR, "/usr/include", "/usr/local/include"};
  if (const std::string nvcc = GPULAB_NVCC; !nvcc.empty()) {
    const fs::path toolkit = fs::path(nvcc).parent_path().parent_path();
    std::error_code ec;
    search.outside.push_back(toolkit);
    if (const fs::path real = fs::weakly_canonical(toolkit, ec); !ec && real != toolkit) search.outside.push_back(real);
  }
  return search;
}

std::vector<LocalHeader> find_local_headers(const std::vector<fs::path>& sources, const std::vector<std::string>& texts,
                                            const HeaderSearch& search_in) {
  HeaderSearch search;
  for (const fs::path& d : search_in.dirs) search.dirs.push_back(fs::absolute(d).lexically_normal());
  for (const fs::path& d : search_in.outside) search.outside.push_back(fs::absolute(d).lexically_normal());
  std::vector<LocalHeader> headers;
  std::set<fs::path> seen;
  for (const fs::path& s : sources) seen.insert(fs::absolute(s).lexically_normal());
  auto scan = [&](const fs::path& file, const std::string& text) {
    for (const Include& inc : includes_of(text)) {
      const fs::path header = resolve(inc, file, search);
      if (header.empty() || !seen.insert(header).second) continue;
      const bool outside = std::any_of(search.outside.begin(), search.outside.end(),
                                       [&header](const fs::path& dir) { return is_under(header, dir); });
      if (!outside) headers.push_back({header, read_text(header)});
    }
  };
  for (size_t i = 0; i < sources.size() && i < texts.size(); ++i)
    scan(fs::absolute(sources[i]).lexically_normal(), texts[i]);
  for (size_t k = 0; k < headers.size(); ++k) {
    const LocalHeader h = headers[k];  // a copy: scan() appends to headers
    scan(h.path, h.text);
  }
  return headers;
}

std::vector<LocalHeader> headers_inside(const std::vector<LocalHeader>& headers, const std::vector<fs::path>& folders) {
  std::vector<fs::path> real_folders;
  std::error_code ec;
  for (const fs::path& f : folders) {
    if (fs::path real = fs::weakly_canonical(fs::absolute(f), ec); !ec) real_folders.push_back(real);
  }
  std::vector<LocalHeader> inside;
  for (const LocalHeader& h : headers) {
    const fs::path real = fs::weakly_canonical(h.path, ec);
    if (ec) continue;
    if (std::any_of(real_folders.begin(), real_folders.end(),
                    [&real](const fs::path& f) { return is_under(real, f); })) {
      inside.push_back(h);
    }
  }
  return inside;
}

std::vector<std::string> rewritten_header_flags(const std::vector<LocalHeader>& headers,
                                                const std::vector<fs::path>& dirs, const fs::path& root,
                                                const rewriter::RewriteOptions& options) {
  std::vector<std::string> rewritten;
  bool changed = false;
  for (const LocalHeader& h : headers) {
    rewritten.push_back(rewriter::rewrite_cuda_source(h.text, h.path.string(), options));
    // Unchanged is the #line directive and the header itself.
    const std::string& r = rewritten.back();
    changed = changed || std::string_view(r).substr(r.find('\n') + 1) != h.text;
  }
  std::vector<std::string> flags;
  if (!changed) {
    for (const fs::path& dir : dirs) flags.insert(flags.end(), {"-I", dir.string()});
    return flags;
  }
  std::vector<fs::path> own_folders;
  for (size_t i = 0; i < headers.size(); ++i) {
    const fs::path copy = mirror_of(root, headers[i].path);
    fs::create_directories(copy.parent_path());
    std::ofstream out(copy, std::ios::binary);
    out << rewritten[i];
    if (!out) throw std::runtime_error("cannot write '" + copy.string() + "'");
    if (std::find(own_folders.begin(), own_folders.end(), headers[i].path.parent_path()) == own_folders.end()) {
      own_folders.push_back(headers[i].path.parent_path());
    }
  }
  for (const fs::path& dir : dirs) {
    const fs::path normal = fs::absolute(dir).lexically_normal();
    flags.insert(flags.end(), {"-I", mirror_of(root, normal).string(), "-I", dir.string()});
  }
  for (const fs::path& folder : own_folders) flags.insert(flags.end(), {"-idirafter", folder.string()});
  return flags;
}

}  // namespace gpulab::toolchain
