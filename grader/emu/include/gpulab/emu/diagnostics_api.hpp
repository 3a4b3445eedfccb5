// The emulator's findings about a program, as data: tests and the grader read
// them; the runtime prints them as it finds them.
#pragma once
#include <string>
#include <vector>

namespace gpulab::emu {

struct Diagnostic {
  std::string kind;      // e.g. "barrier-divergence", "out-of-bounds", "launch-config"
  std::string severity;  // "error" or "warning"
  std::string kernel;    // kernel name as launched; empty for host-side findings
  std::string file;      // source of the launch (or of the faulting statement, where known)
  int line = 0;
  std::string block;    // "(3,0,0)" or empty
  std::string threads;  // "(5,0,0)" or a rank list "0-31"; empty if unknown
  std::string message;  // the full sentence shown to the student
};

// Every diagnostic reported so far in this process, in order, once the work queued so far has
// run; clears the list.
std::vector<Diagnostic> take_diagnostics();

}  // namespace gpulab::emu
