// Diagnostics sink and the CUDA error state.
#include "diagnostics.hpp"

#include "gpulab/emu/runtime_api.hpp"
#include "stream_queue.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace gpulab::emu {
namespace {
std::mutex diagnostics_mutex;
std::vector<Diagnostic>& stored() {
  static std::vector<Diagnostic> list;
  return list;
}
std::atomic<int> last_error{cudaSuccess};
std::atomic<int> sticky{cudaSuccess};
std::atomic<int> pending{cudaSuccess};  // a kernel failed; not yet seen by a synchronising call

void append_report_file(const Diagnostic& d) {
  const char* path = std::getenv("GPULAB_EMU_REPORT");
  if (!path || !*path) return;
  nlohmann::json j = {{"kind", d.kind}, {"severity", d.severity}, {"kernel", d.kernel},   {"file", d.file},
                      {"line", d.line}, {"block", d.block},       {"threads", d.threads}, {"message", d.message}};
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\n", j.dump().c_str());
    std::fclose(f);
  }
}
}  // namespace

void report(Diagnostic d, cudaError_t sticky_code) {
  std::lock_guard<std::mutex> lock(diagnostics_mutex);
  std::fflush(stdout);
  std::fprintf(stderr, "gpulab-emu: %s: %s\n", d.severity.c_str(), d.message.c_str());
  std::fflush(stderr);
  append_report_file(d);
  stored().push_back(std::move(d));
  if (sticky_code != cudaSuccess) {
    int expected = cudaSuccess;
    pending.compare_exchange_strong(expected, sticky_code);
  }
}

cudaError_t refuse_call(const char* api, cudaError_t code, const std::string& what) {
  Diagnostic d;
  d.kind = "api-misuse";
  d.severity = "error";
  d.message = std::string(api) + " failed: " + what + " (" + cudaGetErrorName(code) + ").";
  report(std::move(d));
  return set_last_error(code);
}

std::vector<Diagnostic> take_diagnostics() {
  wait_for_all();  // the work queued so far has run: its findings are in the list
  std::lock_guard<std::mutex> lock(diagnostics_mutex);
  std::vector<Diagnostic> out;
  out.swap(stored());
  return out;
}

cudaError_t set_last_error(cudaError_t error) {
  if (error != cudaSuccess) last_error.store(error);
  return error;
}
cudaError_t sticky_error() { return static_cast<cudaError_t>(sticky.load()); }
bool device_failed() { return pending.load() != cudaSuccess || sticky.load() != cudaSuccess; }
cudaError_t synchronize_errors() {
  const int p = pending.exchange(cudaSuccess);
  if (p != cudaSuccess) {
    int expected = cudaSuccess;
    if (sticky.compare_exchange_strong(expected, p)) last_error.store(p);
  }
  return sticky_error() != cudaSuccess ? set_last_error(sticky_error()) : cudaSuccess;
}
// As measured on a GPU: cudaGetLastError returns a sticky error once and then
// success, while every other call keeps returning the sticky error.
cudaError_t take_last_error() { return static_cast<cudaError_t>(last_error.exchange(cudaSuccess)); }
cudaError_t peek_last_error() { return static_cast<cudaError_t>(last_error.load()); }

void reset_error_state() {
  pending.store(cudaSuccess);
  sticky.store(cudaSuccess);
  last_error.store(cudaSuccess);
}

std::string format_ranks(const std::vector<unsigned>& ranks) {
  std::string out;
  size_t i = 0;
  int groups = 0;
  while (i < ranks.size()) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (groups == 8) {
      out += ", ...";
      break;
    }
    if (!out.empty()) out += ", ";
    out += std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    ++groups;
    i = j + 1;
  }
  return out;
}

std::string format_index(unsigned x, unsigned y, unsigned z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

}  // namespace gpulab::emu
