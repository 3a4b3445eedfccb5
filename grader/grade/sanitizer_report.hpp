// Reading compute-sanitizer's text output (memcheck, racecheck, synccheck,
// initcheck) into findings that name the kernel, the source line and the
// threads, and collapsing repeats, so a student reads "out-of-bounds read in
// reduce_kernel at reduction.cu:31 (thread (255,0,0) of block (3,0,0)), 52
// times" instead of a thousand lines of sanitizer log.
#pragma once
#include <string>
#include <vector>

namespace gpulab::grade {

struct SanitizerFinding {
  std::string tool;     // memcheck, racecheck, synccheck, initcheck
  std::string message;  // the sanitizer's headline, e.g. "Invalid __global__ read of size 4 bytes"
  std::string kernel;   // the function it happened in, without parameters
  std::string file;     // the source file (base name) and line, when the build had -lineinfo
  int line = 0;
  std::string where;   // "thread (255,0,0) in block (3,0,0)" where given
  std::string detail;  // e.g. "Address 0x... is out of bounds", "and Read access at ..."
  int count = 1;       // identical findings (same tool, headline, kernel, line) collapsed
};

std::vector<SanitizerFinding> parse_sanitizer_output(const std::string& tool, const std::string& text);
std::string describe_finding(const SanitizerFinding& f);  // one line, for feedback

// Empty when the tool ran to its summary line; otherwise why it did not, with
// the last lines it printed (so a sanitizer that could not start is never read
// as "no findings").
std::string sanitizer_incomplete(const std::string& tool, const std::string& text, int exit_code, int signal);

}  // namespace gpulab::grade
