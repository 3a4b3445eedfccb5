// build_program for both backends: the sources read, the build cache asked (build_cache.hpp), the
// emulator's rewrite of .cu sources and headers, the compile (compile_command.hpp) in the sandbox
// where the options give one, and the finished build put into the cache.
#include "toolchain.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "audit_inputs.hpp"
#include "build_cache.hpp"
#include "build_config.hpp"
#include "compile_command.hpp"
#include "files/atomic_file.hpp"
#include "files/grader_error.hpp"
#include "files/temp_folder.hpp"
#include "host_sources.hpp"
#include "local_headers.hpp"
#include "missing_cuda_features.hpp"
#include "precompiled_header.hpp"
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

std::string quote_for_display(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    if (!s.empty()) s += ' ';
    s += a.find_first_of(" \"'") == std::string::npos ? a : "'" + a + "'";
  }
  return s;
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
