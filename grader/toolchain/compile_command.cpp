// Implementation of compile_command.hpp.
#include "compile_command.hpp"

#include <algorithm>
#include <initializer_list>

#include "build_config.hpp"
#include "host_sources.hpp"
#include "precompiled_header.hpp"

namespace gpulab::toolchain {
namespace fs = std::filesystem;

namespace {
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

}  // namespace

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

// The compile command; on the emulator it compiles the rewritten .cu sources in `dir`.
std::vector<std::string> compile_command(const BuildSources& s, const BuildOptions& options, const fs::path& dir,
                                         const std::vector<std::string>& include_flags) {
  const fs::path artifact = dir / artifact_name(options);
  return options.backend == Backend::emu ? emulator_command(s, options, dir, artifact, include_flags)
                                         : nvcc_command(s, options, artifact);
}

}  // namespace gpulab::toolchain
