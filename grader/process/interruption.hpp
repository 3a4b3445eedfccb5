// Ctrl-C (SIGINT) and SIGTERM end gpulab cleanly: the handlers only note the
// signal; the process layer's wait loops (run.hpp) notice it, stop the child
// they are waiting for and throw Interrupted, which unwinds the stack (so
// temporary folders are removed and no half-written file is renamed into
// place); the command then exits with 128 + the signal. Long computations of
// the grader's own may call throw_if_interrupted() between steps.
#pragma once
#include <stdexcept>
#include <string>

namespace gpulab::process {

struct Interrupted : std::runtime_error {
  explicit Interrupted(int signal);
  int signal;
};

// Installs the handlers (idempotent; also puts them back after a command used its own).
void install_interrupt_handlers();
// Records `signal` as if it had arrived; async-signal-safe, for a command's own handler
// (batch: the first Ctrl-C lets gradings finish, the second calls this to stop them now).
void note_interrupt(int signal);
// The signal that arrived (SIGINT or SIGTERM), or 0.
int interrupt_signal();
void throw_if_interrupted();
// Forgets the signal (for a caller that has dealt with it and goes on, such as a test).
void clear_interrupt();

}  // namespace gpulab::process
