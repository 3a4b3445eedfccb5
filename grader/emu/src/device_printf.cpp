// The process-wide printf: formats into the running block's buffer inside a
// kernel, and behaves as the C library's printf in host code. Submissions are
// compiled with -fno-builtin-printf so every call arrives here.
#include "device_printf.hpp"

#include "launch_replay.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "block_runner.hpp"

namespace gpulab::emu {
namespace {
std::mutex output_mutex;
std::string& pending() {
  static auto* s = new std::string();
  return *s;
}
struct FlushAtExit {
  FlushAtExit() {
    std::atexit([] { flush_device_output(); });
  }
} flush_at_exit;
}  // namespace

void queue_device_output(std::string text) {
  if (text.empty()) return;
  std::lock_guard<std::mutex> lock(output_mutex);
  pending() += text;
}

void flush_device_output() {
  std::string out;
  {
    std::lock_guard<std::mutex> lock(output_mutex);
    out.swap(pending());
  }
  if (!out.empty()) {
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
  }
}

}  // namespace gpulab::emu

extern "C" int printf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  int n;
  if (gpulab::emu::BlockRunner* r = gpulab::emu::running_block_runner()) {
    gpulab::emu::note_impure_launch();
    char small[512];
    va_list copy;
    va_copy(copy, args);
    n = std::vsnprintf(small, sizeof small, format, copy);
    va_end(copy);
    if (n >= 0 && static_cast<size_t>(n) < sizeof small) {
      r->append_printf(small, static_cast<size_t>(n));
    } else if (n >= 0) {
      std::string big(static_cast<size_t>(n) + 1, '\0');
      std::vsnprintf(big.data(), big.size(), format, args);
      r->append_printf(big.data(), static_cast<size_t>(n));
    }
  } else {
    n = std::vprintf(format, args);
  }
  va_end(args);
  return n;
}
