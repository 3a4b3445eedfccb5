// Implementation of interruption.hpp.
#include "process/interruption.hpp"

#include <signal.h>

namespace gpulab::process {
namespace {
volatile sig_atomic_t arrived = 0;

extern "C" void note_signal(int signal) {
  if (arrived == 0) arrived = signal;
}
}  // namespace

Interrupted::Interrupted(int s)
    : std::runtime_error(s == SIGTERM ? "stopped by SIGTERM" : "interrupted (Ctrl-C)"), signal(s) {}

void note_interrupt(int signal) { note_signal(signal); }

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = note_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking wait returns with EINTR and the loop looks at the flag
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int interrupt_signal() { return arrived; }

void clear_interrupt() { arrived = 0; }

void throw_if_interrupted() {
  if (arrived != 0) throw Interrupted(arrived);
}

}  // namespace gpulab::process
