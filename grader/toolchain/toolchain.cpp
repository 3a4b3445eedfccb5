// build_program for both backends.
#include "toolchain.hpp"

#include <algorithm>
#include <atomic>
#include <unistd.h>

#include <cstdlib>
#include <initializer_list>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "audit_inputs.hpp"
#include "build_config.hpp"
#include "host_sources.hpp"
#include "content_hash.hpp"
#include "local_headers.hpp"
#include "precompiled_header.hpp"
#include "toolchain_stamps.hpp"
#include "missing_cuda_features.hpp"
#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "files/atomic_file.hpp"
#include "files/temp_folder.hpp"
#include "files/grader_error.hpp"
#include "process/run.hpp"
#include "rewriter/cuda_rewriter.hpp"

namespace gpulab::toolchain {
namespace fs = std::filesystem;

namespace {
std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + p.string() + "': no such file or not readable");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write '" + p.string() + "'");
}

// Local headers a source includes with quotes, recursively, each once: found next to the
// including file or else in one of `search` (the build's -I folders), as the compiler finds them.
void find_local_includes(const fs::path& source, const std::string& text, const std::vector<fs::path>& search,
                         std::vector<std::pair<fs::path, std::string>>& out, int depth = 0) {
  if (depth > 8) return;
  static const std::regex include_re(R"re(#\s*include\s*"([^"]+)")re");
  for (std::sregex_iterator it(text.begin(), text.end(), include_re), end; it != end; ++it) {
    const std::string name = (*it)[1].str();
    std::error_code ec;
    fs::path header = source.parent_path() / name;
    for (size_t i = 0; i < search.size() && !fs::is_regular_file(header, ec); ++i) header = search[i] / name;
    if (!fs::is_regular_file(header, ec)) continue;
    header = header.lexically_normal();
    const bool seen = std::any_of(out.begin(), out.end(), [&](const auto& h) { return h.first == header; });
    if (seen) continue;
    out.emplace_back(header, read_file(header));
    const std::string content = out.back().second;  // out grows below
    find_local_includes(header, content, search, out, depth + 1);
  }
}

// What a sandboxed compile of `source` may read of its neighbours: its local headers inside its own folder.
void add_local_headers(std::vector<fs::path>& reads, const fs::path& source, const std::string& text) {
  std::vector<std::pair<fs::path, std::string>> headers;
  find_local_includes(source, text, {}, headers);
  const fs::path folder = source.parent_path().lexically_normal();
  for (const auto& entry : headers) {
    const fs::path h = fs::absolute(entry.first).lexically_normal();
    const auto rel = h.lexically_relative(folder);
    if (!rel.empty() && *rel.begin() != "..") reads.push_back(h);
  }
}

// The link of an emulator program: the prebuilt inputs, the runtime and the output.
void append_emulator_link(std::vector<std::string>& argv, const BuildOptions& options, const fs::path& executable) {
  // The whole archives (the harness) before the prebuilt objects (a submission's): the harness is
  // linked first.
  if (!options.whole_archives.empty()) {
#if defined(__APPLE__)  // Apple's linker: -force_load, one archive at a time (not yet run: docs/platforms.md)
    for (const auto& archive : options.whole_archives) argv.push_back("-Wl,-force_load," + archive);
#else
    argv.push_back("-Wl,--whole-archive");
    argv.insert(argv.end(), options.whole_archives.begin(), options.whole_archives.end());
    argv.push_back("-Wl,--no-whole-archive");
#endif
  }
  argv.insert(argv.end(), options.link_inputs.begin(), options.link_inputs.end());
  // The race-check build links the checking runtime instead of ThreadSanitizer's own. With
  // -fsanitize=thread on its command line g++ would also link libtsan (and libtsan_preinit.o),
  // so it gets -nodefaultlibs and the default libraries (g++ 12's, in its order) by name;
  // clang is told not to link its runtime (-fno-sanitize-link-runtime) and needs nothing here
  // (GPULAB_RACE_CHECK_LINK_ARGS, grader/emu/check/CMakeLists.txt).
  if (options.race_check) argv.push_back(GPULAB_EMU_CHECK_LIBRARY);
  argv.insert(argv.end(), {GPULAB_EMU_LINK_INPUTS, "-o", executable.string()});
  argv.insert(argv.end(), options.link_flags.begin(), options.link_flags.end());
  if (options.race_check) {
    for (const char* arg : std::initializer_list<const char*>{GPULAB_RACE_CHECK_LINK_ARGS}) argv.push_back(arg);
  }
}

std::string quote_for_display(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    if (!s.empty()) s += ' ';
    s += a.find_first_of(" \"'") == std::string::npos ? a : "'" + a + "'";
  }
  return s;
}
// The stamp that makes a cache folder a complete entry; it keeps the compiler's warnings, so a
// cached build shows them as a fresh one does.
constexpr const char* kStamp = "complete.json";

std::optional<BuildResult> read_cache_entry(const fs::path& entry, const std::string& artifact) {
  std::error_code ec;
  const fs::path program = entry / artifact;
  if (!fs::is_regular_file(entry / kStamp, ec) || !fs::is_regular_file(program, ec) ||
      fs::file_size(program, ec) == 0) {
    return std::nullopt;
  }
  try {
    const nlohmann::json stamp = nlohmann::json::parse(files::read_whole_file(entry / kStamp));
    BuildResult r;
    r.ok = true;
    r.cached = true;
    r.executable = program;
    r.compiler_output = stamp.value("compiler_output", std::string());
    r.command = stamp.value("command", std::string());
    return r;
  } catch (const std::exception&) {
    return std::nullopt;  // a damaged stamp: build again
  }
}

// A folder to build in, beside the cache's entries (so the rename into place stays on one file
// system); folders left by a killed gpulab are removed first.
files::TempFolder staging_folder() {
  const fs::path building = cache_directory() / "building";
  std::error_code ec;
  fs::create_directories(building, ec);
  if (ec) {
    throw files::GraderError("cannot create the build cache's folder " + building.string() + " (" + ec.message() +
                             "): set GPULAB_CACHE to a writable folder");
  }
  static const bool swept = (files::sweep_stale_temp_folders(building), true);
  (void)swept;
  files::TempFolder staging("build", building);
  chmod(staging.path().c_str(), 0755);  // as a cache folder (the sandbox's user reads it)
  return staging;
}

// Stamps the finished build and renames its folder into place as `entry`; returns the artifact's
// path there. Another gpulab may have finished the same build first: then its entry is used.
fs::path commit_cache_entry(files::TempFolder staging, const fs::path& entry, const std::string& artifact,
                            const BuildResult& built) {
  files::write_json_atomically(staging / kStamp,
                               {{"compiler_output", built.compiler_output}, {"command", built.command}});
  std::error_code ec;
  fs::rename(staging.path(), entry, ec);
  if (ec && !read_cache_entry(entry, artifact)) {
    fs::remove_all(entry, ec);  // an incomplete entry (an older gpulab's, or damaged): replaced
    fs::rename(staging.path(), entry, ec);
  }
  if (!ec) staging.release();
  if (!read_cache_entry(entry, artifact)) {
    throw files::GraderError("cannot put a build into the cache at " + entry.string() + " (" + ec.message() +
                             "): check that GPULAB_CACHE is writable and the disk is not full");
  }
  return entry / artifact;
}
}  // namespace

Backend parse_backend(const std::string& name) {
  if (name == "emu") return Backend::emu;
  if (name == "cuda") return Backend::cuda;
  throw std::invalid_argument("unknown backend '" + name + "': use 'emu' (CPU emulator) or 'cuda' (real GPU)");
}
const char* backend_name(Backend b) { return b == Backend::emu ? "emu" : "cuda"; }

bool cuda_backend_available() {
  const std::string nvcc = GPULAB_NVCC;
  return !nvcc.empty() && access(nvcc.c_str(), X_OK) == 0;
}

bool race_check_available() { return !std::string(GPULAB_EMU_CHECK_LIBRARY).empty(); }

fs::path project_root() {
  if (const char* env = std::getenv("GPULAB_HOME"); env && *env) return env;
  return GPULAB_SOURCE_DIR;
}

void sweep_cache_leftovers() {
  const fs::path cache = cache_directory();
  std::error_code ec;
  if (!fs::is_directory(cache, ec)) return;
  try {
    for (const char* folder : {"building", "datasets"}) {
      if (fs::is_directory(cache / folder, ec)) files::sweep_stale_temp_folders(cache / folder);
    }
    for (auto it = fs::directory_iterator(cache, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec)) files::remove_stale_partial_files(it->path());
    }
  } catch (const std::exception&) {
    // Tidying is never a reason to fail: what is left is never read as a result.
  }
}

void check_installation() {
  const fs::path root = project_root();
  const bool from_env = std::getenv("GPULAB_HOME") && *std::getenv("GPULAB_HOME");
  for (const char* needed : {"grader", "assignments"}) {
    std::error_code ec;
    if (fs::is_directory(root / needed, ec)) continue;
    throw files::GraderError((from_env ? "GPULAB_HOME=" + root.string() : "gpulab's source folder " + root.string()) +
                             " has no " + needed + "/ folder, so it is not a gpulab installation: " +
                             (from_env
                                  ? "point GPULAB_HOME at the folder that holds grader/, assignments/ and datasets/ "
                                    "(or unset it)"
                                  : "rebuild gpulab from its source tree, or set GPULAB_HOME to an installation"));
  }
}

std::string harness_emu_library() { return GPULAB_HARNESS_EMU_LIBRARY; }
std::string nvcc_path() { return GPULAB_NVCC; }
std::string cuda_library_dir() { return GPULAB_CUDA_LIBRARY_DIR; }
std::string emu_include_dir() { return GPULAB_EMU_INCLUDE_DIR; }

fs::path cache_directory() {
  if (const char* env = std::getenv("GPULAB_CACHE"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "gpulab";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "gpulab";
  return fs::temp_directory_path() / ("gpulab-cache-" + std::to_string(getuid()));
}

namespace {
std::atomic<size_t> rewrites{0};

// The sources of one build, the main one first, each read once, with the program's own headers.
struct BuildSources {
  std::vector<fs::path> paths;
  std::vector<std::string> texts;
  std::vector<fs::path> folders;     // include folders in the compiler's order: -I, then each source's folder
  std::vector<LocalHeader> headers;  // what the sources include from those folders, recursively
};

// What the rewriter needs to know of the whole program: the architecture of nvcc's device pass and
// the macros and kernels that the program's .cu files and headers declare (a header's macro that
// depends on __CUDA_ARCH__, a header's kernel cast to void* in the .cu).
rewriter::RewriteOptions rewrite_options(const BuildSources& s, const BuildOptions& options, bool region_forms) {
  rewriter::RewriteOptions r;
  r.region_forms = region_forms && !options.race_check;  // the checking build follows every thread on a fiber
  r.cuda_arch = rewriter::cuda_arch_value(options.cuda_arch);
  std::vector<std::string_view> texts;
  for (size_t i = 0; i < s.paths.size(); ++i) {
    if (s.paths[i].extension() == ".cu") texts.push_back(s.texts[i]);
  }
  for (const LocalHeader& h : s.headers) texts.push_back(h.text);
  r.arch_macros = rewriter::program_arch_macros(texts, r.cuda_arch);
  r.kernel_names = rewriter::program_kernel_names(texts);
  if (r.region_forms) r.program_names = rewriter::program_region_names(texts);
  return r;
}

void check_build_options(const fs::path& source_in, const fs::path& source, const BuildOptions& options) {
  if (!fs::is_regular_file(source)) {
    throw std::runtime_error("cannot find '" + source_in.string() + "': check the path of the .cu file");
  }
  if (options.backend == Backend::cuda && !cuda_backend_available()) {
    throw std::runtime_error("the cuda backend needs nvcc, which this build of gpulab did not find; use --backend emu");
  }
  if (options.race_check && options.backend != Backend::emu) {
    throw std::runtime_error("--race-check is an emulator feature; on a GPU use `compute-sanitizer --tool racecheck`");
  }
  if (options.race_check && std::string(GPULAB_EMU_CHECK_LIBRARY).empty()) {
    throw std::runtime_error("this build of gpulab has no checking runtime for --race-check");
  }
  if (options.object_file && (options.shared_library || !options.extra_sources.empty())) {
    throw std::runtime_error("an object file is compiled from one source");
  }
  if (options.backend == Backend::emu) (void)rewriter::cuda_arch_value(options.cuda_arch);  // throws for a bad one
}

BuildSources read_sources(const fs::path& source, const BuildOptions& options) {
  BuildSources s;
  s.paths.push_back(source);
  for (const auto& extra : options.extra_sources) s.paths.push_back(fs::absolute(extra));
  for (const auto& p : s.paths) s.texts.push_back(read_file(p));
  s.folders = include_folders(options.include_dirs, s.paths);
  s.headers = find_local_headers(s.paths, s.texts, program_header_search(options.backend == Backend::emu, s.folders));
  return s;
}

// Plain -I options for the build's folders (the key's stand-in for the emulator's header copies,
// which depend only on the headers' text, hashed on their own).
std::vector<std::string> plain_include_flags(const BuildSources& s) {
  std::vector<std::string> flags;
  for (const auto& folder : s.folders) flags.insert(flags.end(), {"-I", folder.string()});
  return flags;
}

// Where an emulator build compiles host source number `i` (.c, .cpp, ...) to.
fs::path host_object_path(const fs::path& dir, size_t i, const fs::path& source) {
  return dir / (std::to_string(i) + "_" + source.stem().string() + ".o");
}

std::string artifact_name(const BuildOptions& options) {
  return options.object_file ? "object.o" : options.shared_library ? "library.so" : "program";
}

// Where the emulator's rewrite of a .cu source is compiled from: in the copy of its own folder
// where the rewritten copies of its headers go (rewrite_headers), so that a quoted include finds
// the header next to the source first, as it does for the original (-iquote then names the
// original folder, for headers that needed no copy).
fs::path rewritten_path(const fs::path& dir, const fs::path& source) {
  return dir / "headers" / (fs::absolute(source).lexically_normal().relative_path().string() + ".emu.cpp");
}

// An emulator compile's options before the CUDA header it includes first: the compiler, the flags
// and nvcc's macros (also those the header is precompiled with: precompiled_header.hpp).
std::vector<std::string> emulator_options_before_header(const BuildOptions& options) {
  // DWARF 4: with version 5, binutils' addr2line (2.40) names the rewritten file instead of
  // the #line's for some rows, and the profile's lines must name the student's file.
  // GPULAB_EMU_COMPILE_ARGS: the same results on every platform and compiler (signed char, no FP
  // contraction), volatile's C++20 deprecation silenced, large frames probed (grader/emu/CMakeLists.txt).
  std::vector<std::string> argv = {GPULAB_CXX_COMPILER, "-std=c++20",          "-O2",
                                   "-gdwarf-4",         "-fno-builtin-printf", "-pthread"};
  argv.insert(argv.end(), {GPULAB_EMU_COMPILE_ARGS});
  // The checking build keeps one instrumented access per access of the source, as nvcc's code
  // has (the flags and why: grader/emu/check/CMakeLists.txt).
  if (options.race_check) argv.insert(argv.end(), {GPULAB_CHECKED_BUILD_ARGS});
  const std::vector<std::string> macros = nvcc_macros(options.cuda_arch);
  argv.insert(argv.end(), macros.begin(), macros.end());
  return argv;
}

// `include_flags`: the -I options (with the emulator's rewritten header copies first, where any).
std::vector<std::string> emulator_command(const BuildSources& s, const BuildOptions& options, const fs::path& dir,
                                          const fs::path& artifact, const std::vector<std::string>& include_flags) {
  std::vector<std::string> argv = emulator_options_before_header(options);
  // The emulator's CUDA header, from its precompiled form where one was made for these options.
  argv.insert(argv.end(), {"-include", "gpulab/emu/cuda_emulation.hpp"});
  if (precompiled_header_enabled()) {
    argv.insert(argv.end(), {"-I", precompiled_header_folder(emulator_options_before_header(options)).string()});
  }
  argv.insert(argv.end(), {"-I", GPULAB_EMU_INCLUDE_DIR});
  // A quoted include looks next to the including file first: for a rewritten source, the folder of
  // the original (after the copy's, which holds the rewritten copies of its headers), before -I.
  for (size_t i = 0; i < s.paths.size(); ++i) {
    if (s.paths[i].extension() != ".cu") continue;
    const std::string folder = fs::absolute(s.paths[i]).lexically_normal().parent_path().string();
    if (std::find(argv.begin(), argv.end(), folder) == argv.end()) argv.insert(argv.end(), {"-iquote", folder});
  }
  argv.insert(argv.end(), include_flags.begin(), include_flags.end());
  for (const auto& d : options.defines) argv.push_back("-D" + d);
  for (size_t i = 0; i < s.paths.size(); ++i) {
    if (s.paths[i].extension() == ".cu") {
      argv.insert(argv.end(), {"-x", "c++", rewritten_path(dir, s.paths[i]).string(), "-x", "none"});
    } else if (is_host_source(s.paths[i])) {
      argv.push_back(host_object_path(dir, i, s.paths[i]).string());  // compiled on its own first
    } else {
      argv.push_back(s.paths[i].string());
    }
  }
  if (options.object_file) {
    argv.insert(argv.end(), {"-c", "-o", artifact.string()});
  } else {
    append_emulator_link(argv, options, artifact);
  }
  return argv;
}

std::vector<std::string> nvcc_command(const BuildSources& s, const BuildOptions& options, const fs::path& artifact) {
  const std::string arch = options.cuda_arch.rfind("sm_", 0) == 0 ? options.cuda_arch.substr(3) : options.cuda_arch;
  const bool dynamic = options.shared_library || !options.libraries.empty();
  std::vector<std::string> argv = {GPULAB_NVCC, "-std=c++20",
                                   "-O2",       "-lineinfo",
                                   "-cudart",   dynamic ? "shared" : "static",
                                   "-gencode",  "arch=compute_" + arch + ",code=sm_" + arch};
  if (options.shared_library) argv.insert(argv.end(), {"-shared", "-Xcompiler", "-fPIC", "-Xlinker", "-Bsymbolic"});
  if (dynamic) {
    // The toolkit's libraries (cuda_library_dir()), found at run time without LD_LIBRARY_PATH.
    argv.insert(argv.end(), {"-Xlinker", "-rpath", "-Xlinker", cuda_library_dir()});
  }
  for (const auto& folder : s.folders) argv.insert(argv.end(), {"-I", folder.string()});  // as the emulator build
  for (const auto& d : options.defines) argv.push_back("-D" + d);
  for (const auto& p : s.paths) argv.push_back(p.string());
  if (options.object_file) {
    argv.insert(argv.end(), {"-c", "-o", artifact.string()});
    return argv;
  }
  argv.insert(argv.end(), options.link_inputs.begin(), options.link_inputs.end());
  if (!options.whole_archives.empty()) {
    argv.insert(argv.end(), {"-Xlinker", "--whole-archive"});
    argv.insert(argv.end(), options.whole_archives.begin(), options.whole_archives.end());
    argv.insert(argv.end(), {"-Xlinker", "--no-whole-archive"});
  }
  argv.insert(argv.end(), options.link_flags.begin(), options.link_flags.end());
  for (const auto& lib : options.libraries) argv.push_back("-l" + lib);
  argv.insert(argv.end(), {"-o", artifact.string()});
  return argv;
}

// The compile command; on the emulator it compiles the rewritten .cu sources in `dir`.
std::vector<std::string> compile_command(const BuildSources& s, const BuildOptions& options, const fs::path& dir,
                                         const std::vector<std::string>& include_flags) {
  const fs::path artifact = dir / artifact_name(options);
  return options.backend == Backend::emu ? emulator_command(s, options, dir, artifact, include_flags)
                                         : nvcc_command(s, options, artifact);
}

// What the build's output depends on besides its sources: the compiler, the emulator's runtime
// and headers and, since the emulator compiles rewritten sources, the rewriter linked into
// this gpulab (a rebuilt rewriter has a new stamp, so an older rewrite is never reused).
void hash_toolchain(ContentHash& hash, const BuildOptions& options) {
  hash.add(GPULAB_VERSION).add(backend_name(options.backend)).add(options.race_check ? "race" : "plain");
  hash.add(options.cuda_arch).add(file_stamp(GPULAB_EMU_LIBRARY)).add(file_stamp(GPULAB_EMU_CHECK_LIBRARY));
  if (options.backend == Backend::emu) {
    hash.add(emulator_headers_stamp()).add(file_stamp(GPULAB_REWRITER_LIBRARY)).add(file_stamp(GPULAB_CXX_COMPILER));
    for (const char* input : {GPULAB_EMU_LINK_INPUTS}) hash.add(file_stamp(input));  // the platform library, Boost
  } else {
    hash.add(file_stamp(GPULAB_NVCC));
  }
}

// The name of the build's cache entry, from the original sources (never their rewrite: a hit
// costs no rewriting), their local headers, the options and the toolchain.
std::string cache_key(const BuildSources& s, const BuildOptions& options) {
  ContentHash hash;
  hash_toolchain(hash, options);
  for (size_t i = 0; i < s.paths.size(); ++i) hash.add(s.paths[i].string()).add(s.texts[i]);
  // So that editing a header the program includes (next to a source or in an -I folder) rebuilds.
  for (const LocalHeader& h : s.headers) hash.add(h.path.string()).add(h.text);
  for (const auto& lib : options.link_inputs) hash.add(file_stamp(lib.c_str()));
  for (const auto& lib : options.whole_archives) hash.add("whole:" + file_stamp(lib.c_str()));
  // The command itself (flags, include folders, libraries, the kind of artifact), in a folder
  // named the same for every build.
  for (const std::string& arg : compile_command(s, options, "@build@", plain_include_flags(s))) hash.add(arg);
  return hash.hex();
}

// Writes the emulator's rewrite of every .cu source into `dir`; the rewriter's message when one
// cannot be rewritten.
std::optional<std::string> rewrite_sources(const BuildSources& s, const rewriter::RewriteOptions& rewrite,
                                           const fs::path& dir) {
  for (size_t i = 0; i < s.paths.size(); ++i) {
    if (s.paths[i].extension() != ".cu") continue;
    ++rewrites;
    try {
      const fs::path path = rewritten_path(dir, s.paths[i]);
      fs::create_directories(path.parent_path());
      write_file(path, gpulab::rewriter::rewrite_cuda_source(s.texts[i], s.paths[i].string(), rewrite));
    } catch (const gpulab::rewriter::RewriteError& e) {
      return std::string(e.what()) + "\n";
    }
  }
  return std::nullopt;
}

// The compile as a job for options.run_compiler (a sandbox): what it reads besides the system's.
CompileJob compile_job(const std::vector<std::string>& argv, const fs::path& dir, const BuildSources& s,
                       const BuildOptions& options) {
  CompileJob job{argv, dir, {}};
  for (size_t i = 0; i < s.paths.size(); ++i) {
    job.reads.push_back(s.paths[i]);
    if (i == 0) add_local_headers(job.reads, s.paths[i], s.texts[i]);
  }
  for (const auto& inc : options.include_dirs) job.reads.push_back(inc);
  for (const auto& lib : options.link_inputs) job.reads.push_back(lib);
  for (const auto& lib : options.whole_archives) job.reads.push_back(lib);
  if (options.backend == Backend::emu) {
    job.reads.push_back(GPULAB_EMU_INCLUDE_DIR);
    if (precompiled_header_enabled()) {
      const fs::path header = precompiled_header_folder(emulator_options_before_header(options));
      std::error_code ec;
      if (fs::is_directory(header, ec)) job.reads.push_back(header);
    }
    // The runtime and what it links (the platform library; Boost.Context where it switches fibers).
    for (const char* input : {GPULAB_EMU_LINK_INPUTS}) job.reads.push_back(input);
    if (options.race_check) job.reads.push_back(GPULAB_EMU_CHECK_LIBRARY);
  }
  return job;
}

// The emulator's -I options, with rewritten copies of the program's headers first where one of
// them needs the rewriter (a `__shared__` or `<<<>>>` in a header); the rewriter's message when
// a header cannot be rewritten. A sandboxed compile reads the first source's folder and the -I
// folders, nothing else (compile_job): no header from elsewhere is copied where it could read it.
std::optional<std::string> rewrite_headers(const BuildSources& s, const BuildOptions& options,
                                           const rewriter::RewriteOptions& rewrite, const fs::path& dir,
                                           std::vector<std::string>& include_flags) {
  try {
    std::vector<fs::path> readable(options.include_dirs.begin(), options.include_dirs.end());
    readable.push_back(s.paths.front().parent_path());
    include_flags = rewritten_header_flags(options.run_compiler ? headers_inside(s.headers, readable) : s.headers,
                                           s.folders, dir / "headers", rewrite);
  } catch (const gpulab::rewriter::RewriteError& e) {
    return std::string(e.what()) + "\n";
  }
  return std::nullopt;
}

// Emulator builds: each host source compiled on its own, as plain C or C++ against the program's
// own headers (never their rewritten copies), before the program; false when one fails.
bool compile_host_sources(const BuildSources& s, const BuildOptions& options, const fs::path& dir,
                          BuildResult& result) {
  for (size_t i = 0; i < s.paths.size(); ++i) {
    if (!is_host_source(s.paths[i])) continue;
    CompileJob c = host_object_job(s.paths[i], host_object_path(dir, i, s.paths[i]), plain_include_flags(s),
                                   options.defines, options.cuda_arch);
    // A sandboxed compile reads what the program's own compile reads (its sources, the first
    // source's local headers, the -I folders), no more.
    const std::vector<fs::path> program_reads = compile_job(c.argv, dir, s, options).reads;
    c.reads.insert(c.reads.end(), program_reads.begin(), program_reads.end());
    result.command += quote_for_display(c.argv) + " && ";
    const process::ProcessResult p = options.run_compiler ? options.run_compiler(c) : process::run(c.argv, {});
    if (!p.started()) throw files::GraderError("the compiler could not be started: " + p.spawn_error);
    result.compiler_output += p.output;
    if (p.status() != 0) return false;
  }
  return true;
}

// Runs the compiler in `staging`; a good build goes into the cache as `entry`.
BuildResult compile(const BuildSources& s, const BuildOptions& options, files::TempFolder staging,
                    const fs::path& entry, bool region_forms) {
  BuildResult result;
  result.executable = staging.path() / artifact_name(options);
  std::vector<std::string> include_flags;
  if (options.backend == Backend::emu) {
    const rewriter::RewriteOptions rewrite = rewrite_options(s, options, region_forms);
    std::optional<std::string> problem = rewrite_headers(s, options, rewrite, staging.path(), include_flags);
    if (!problem) problem = rewrite_sources(s, rewrite, staging.path());
    if (problem) {
      result.compiler_output = *problem;
      return result;
    }
    if (!compile_host_sources(s, options, staging.path(), result)) return result;
    const bool compiles_cuda =
        std::any_of(s.paths.begin(), s.paths.end(), [](const fs::path& p) { return p.extension() == ".cu"; });
    if (compiles_cuda && precompiled_header_enabled()) {
      (void)ensure_precompiled_header(emulator_options_before_header(options), options.run_compiler);
    }
  }
  std::error_code ec;
  int status = 0;
  if (options.backend == Backend::emu && options.object_file && s.paths.size() == 1 && is_host_source(s.paths[0])) {
    // The object of one host source is that source's own compile (above): a compiler driver
    // given only an object and -c writes nothing.
    fs::rename(host_object_path(staging.path(), 0, s.paths[0]), result.executable, ec);
    status = ec ? 1 : 0;
  } else {
    const std::vector<std::string> argv = compile_command(s, options, staging.path(), include_flags);
    result.command += quote_for_display(argv);
    const process::ProcessResult p = options.run_compiler
                                         ? options.run_compiler(compile_job(argv, staging.path(), s, options))
                                         : process::run(argv, {});
    if (!p.started()) throw files::GraderError("the compiler could not be started: " + p.spawn_error);
    result.compiler_output += p.output;
    status = p.status();
  }
  // A plain file the compiler wrote: a symbolic link left in the build folder is never followed.
  result.ok = status == 0 && fs::is_regular_file(fs::symlink_status(result.executable, ec)) &&
              fs::file_size(result.executable, ec) > 0;
  if (!result.ok) return result;  // a failed build is not cached: the staging folder goes
  result.executable = commit_cache_entry(std::move(staging), entry, artifact_name(options), result);
  return result;
}
}  // namespace

size_t emulator_rewrites() { return rewrites.load(); }

fs::path emulator_rewritten_source(const fs::path& artifact, const fs::path& source) {
  return rewritten_path(artifact.parent_path(), source);
}

BuildResult build_program(const fs::path& source_in, const BuildOptions& options) {
  const fs::path source = fs::absolute(source_in);
  check_build_options(source_in, source, options);
  const BuildSources sources = read_sources(source, options);
  if (options.backend == Backend::emu && (options.shared_library || !options.libraries.empty())) {
    throw std::runtime_error("shared libraries and linked libraries are built for the cuda backend only");
  }
  // A cache entry is a whole folder, renamed into place once complete (with its stamp): an
  // interrupted or failed build leaves nothing a later grading could take for a program.
  // It is looked up before anything is rewritten.
  const fs::path entry = cache_directory() / cache_key(sources, options);
  if (options.use_cache) {
    if (std::optional<BuildResult> hit = read_cache_entry(entry, artifact_name(options))) return *hit;
  }
  BuildResult result = compile(sources, options, staging_folder(), entry, true);
  // A program that does not compile with its kernels' region forms (grader/rewriter/region_rewrite.hpp)
  // is compiled as written: its own errors are then reported once, as without them, and a kernel the
  // region form does not suit runs one fiber per thread.
  if (!result.ok && options.backend == Backend::emu && !options.race_check)
    result = compile(sources, options, staging_folder(), entry, false);
  // A library header or a feature of CUDA the emulator lacks: say so, beside the compiler's message.
  if (!result.ok && options.backend == Backend::emu)
    result.compiler_output += missing_cuda_feature_hints(result.compiler_output);
  return result;
}

}  // namespace gpulab::toolchain
