// assert() in kernels. <assert.h> turns a failed assert into a call of the C
// library's __assert_fail; the emulator library defines that function, so the
// program's calls reach this one (the library's own calls are unaffected).
// Outside a kernel it behaves as the C library does (message, abort). Inside a
// kernel it does what a GPU does: the failing thread prints CUDA's message
//   file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `cond` failed.
// on stderr (not with the kernel's printf output on stdout, as the GPU probes of
// tests/gpu recorded on an H200), the kernel stops, and the next synchronising
// call returns cudaErrorAssert, which stays (sticky) as it does on a GPU. As
// for other kernel faults, a gpulab diagnostic names the launch as well. Only
// the first failing thread of a block is reported: the block stops there.
#include <cassert>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "block_runner.hpp"
#include "diagnostics.hpp"

extern "C" void __assert_fail(const char* assertion, const char* file, unsigned int line,
                              const char* function) noexcept {
  using namespace gpulab::emu;
  BlockRunner* r = running_block_runner();
  if (!r || !r->launch() || !r->running_context()) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n", program_invocation_short_name, file, line, function,
                 assertion);
    std::abort();
  }
  const uint3 b = r->block().block_idx;
  const uint3 t = r->running_context()->thread_idx;
  char message[2048];
  const int n = std::snprintf(message, sizeof message,
                              "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, line,
                              function, b.x, b.y, b.z, t.x, t.y, t.z, assertion);
  if (n > 0) {
    std::fflush(stdout);
    std::fputs(message, stderr);
    std::fflush(stderr);
  }

  Diagnostic d;
  d.kind = "device-assert";
  d.severity = "error";
  d.kernel = r->launch()->request.kernel_name;
  d.file = file;
  d.line = static_cast<int>(line);
  d.block = r->block_label();
  d.threads = r->running_thread_label();
  d.message = "assert(" + std::string(assertion) + ") failed at " + file + ":" + std::to_string(line) + " in " +
              r->launch()->where() + ", block " + d.block + ", thread " + d.threads +
              "; the kernel stopped and the next synchronising call returns cudaErrorAssert.";
  report(std::move(d), cudaErrorAssert);
  r->abort_block();
}
