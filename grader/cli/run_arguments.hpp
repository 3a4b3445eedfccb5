// How `gpulab run` reads the words after its own options: the source files, then the
// program's arguments; everything after `--` goes to the program as written. Kept apart from
// the command so that the rules can be tested on their own.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab::cli {

// A mistake on the command line; what() says what and how to write it instead.
struct RunUsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunArguments {
  std::vector<std::string> sources;       // in the order given; the first holds main or is the main .cu
  std::vector<std::string> program_args;  // for the program, in order
  bool help = false;                      // a lone -h before `--`
};

bool is_source_file(const std::string& word);  // .cu, .cpp, .cc, .cxx, .c
bool is_header_file(const std::string& word);  // .h, .hpp, .hh, .hxx, .cuh, .inl

// `words` are what gpulab's own options left, in order: bare words, options it does not know,
// and `--` with everything after it. Before `--`, the leading words that name sources are the
// sources; the first other word starts the program's arguments (a number, a data file, a word),
// and later words are program arguments even when they end in .cu. A word that starts with '-'
// (and is not a negative number) is an option gpulab does not know, and a header is not
// something to compile: both are RunUsageErrors, as is no source at all.
RunArguments split_run_arguments(const std::vector<std::string>& words);

}  // namespace gpulab::cli
