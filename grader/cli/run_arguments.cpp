// The rules of split_run_arguments (see run_arguments.hpp).
#include "run_arguments.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace gpulab::cli {
namespace {
bool has_extension(const std::string& word, std::initializer_list<const char*> extensions) {
  const std::string ext = std::filesystem::path(word).extension().string();
  return std::any_of(extensions.begin(), extensions.end(), [&ext](const char* e) { return ext == e; });
}

// -5, -0.25, -.5: a program argument, as CLI11 also reads it.
bool is_negative_number(const std::string& word) {
  return word.size() > 1 && word[0] == '-' &&
         (std::isdigit(static_cast<unsigned char>(word[1])) ||
          (word[1] == '.' && word.size() > 2 && std::isdigit(static_cast<unsigned char>(word[2]))));
}
}  // namespace

bool is_source_file(const std::string& word) { return has_extension(word, {".cu", ".cpp", ".cc", ".cxx", ".c"}); }
bool is_header_file(const std::string& word) {
  return has_extension(word, {".h", ".hpp", ".hh", ".hxx", ".cuh", ".inl"});
}

RunArguments split_run_arguments(const std::vector<std::string>& words) {
  RunArguments out;
  bool in_sources = true;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "--") {
      out.program_args.insert(out.program_args.end(), words.begin() + static_cast<long>(i) + 1, words.end());
      break;
    }
    if (w == "-h") {
      out.help = true;
      return out;
    }
    if (w.size() > 1 && w[0] == '-' && !is_negative_number(w)) {
      throw RunUsageError("unknown option '" + w + "'. Arguments for the program go after '--': gpulab run " +
                          (out.sources.empty() ? std::string("FILE.cu") : out.sources.front()) + " -- " + w +
                          " (gpulab run --help lists gpulab's own options)");
    }
    if (is_header_file(w)) {
      throw RunUsageError("'" + w +
                          "' is a header: give gpulab run the source files (.cu, .cpp, .c) and it finds "
                          "their headers through #include (add -I DIR for a header in another folder). To pass '" +
                          w + "' to the program, put it after '--'");
    }
    if (in_sources && is_source_file(w)) {
      out.sources.push_back(w);
      continue;
    }
    if (out.sources.empty()) {
      throw RunUsageError("'" + w +
                          "' is not a source file: gpulab run compiles .cu, .cpp, .cc, .cxx and .c files, "
                          "then runs the program (gpulab run FILE.cu [MORE.cu|.cpp...] [-- ARGS])");
    }
    in_sources = false;
    out.program_args.push_back(w);
  }
  if (out.sources.empty()) {
    throw RunUsageError("no source file: gpulab run FILE.cu [MORE.cu|.cpp...] [-- ARGS]");
  }
  return out;
}

}  // namespace gpulab::cli
