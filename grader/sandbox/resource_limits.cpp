// The limit fields, defaults and application of the resource limits.
#include "resource_limits.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>

namespace gpulab::sandbox {
namespace {
constexpr double kMiB = 1024.0 * 1024.0;

rlim_t bytes(double mb) { return static_cast<rlim_t>(mb * kMiB); }
}  // namespace

const std::vector<LimitField>& limit_fields() {
  static const std::vector<LimitField> fields = {
      {"wall_s", &ResourceLimits::wall_s, false},       {"cpu_s", &ResourceLimits::cpu_s, false},
      {"memory_mb", &ResourceLimits::memory_mb, false}, {"file_size_mb", &ResourceLimits::file_size_mb, false},
      {"processes", &ResourceLimits::processes, true},  {"output_kb", &ResourceLimits::output_kb, false},
      {"compile_s", &ResourceLimits::compile_s, false},
  };
  return fields;
}

unsigned emulator_reserved_mb_per_worker() {
  // Per emulator worker thread: 1024 fiber stacks of 64 KiB + a guard page (68 MiB, mapped
  // MAP_NORESERVE but counted as address space), the thread's own 8 MiB stack, and the
  // address range glibc reserves for the thread's malloc arena (up to 128 MiB while aligning).
  return 68 + 8 + 128;
}

ResolvedLimits resolve(const ResourceLimits& l, bool cuda_backend, unsigned cores, unsigned workers) {
  cores = std::max(1u, cores);
  workers = std::max(1u, workers);
  ResolvedLimits r{};
  r.wall_s = l.wall_s > 0 ? l.wall_s : 30;
  r.cpu_s = l.cpu_s > 0 ? l.cpu_s : r.wall_s * cores;
  r.memory_mb = l.memory_mb > 0 ? l.memory_mb : 4096;
  r.file_size_mb = l.file_size_mb > 0 ? l.file_size_mb : 1024;
  r.output_kb = l.output_kb > 0 ? l.output_kb : 1024;
  r.compile_s = l.compile_s > 0 ? l.compile_s : 300;
  r.processes = l.processes > 0 ? static_cast<long>(l.processes) : std::max(256l, 2l * cores + 64);
  r.limit_address_space = !cuda_backend;
  r.resident_limit_mb = cuda_backend ? static_cast<long>(r.memory_mb) + kResidentMarginMb : 0;
  // Code, libraries and the harness's own buffers come on top of what the submission may use.
  r.address_space_mb =
      static_cast<long>(r.memory_mb) + 512 + static_cast<long>(workers) * emulator_reserved_mb_per_worker();
  return r;
}

bool apply_rlimits(const ResolvedLimits& l, bool with_processes) {
  bool ok = true;
  auto set = [&](int resource, rlim_t soft, rlim_t hard) {
    const rlimit r{soft, hard};
    if (setrlimit(resource, &r) != 0) ok = false;
  };
  const rlim_t cpu = static_cast<rlim_t>(std::ceil(l.cpu_s));
  set(RLIMIT_CPU, cpu, cpu + 1);  // SIGXCPU at the limit, SIGKILL a second later
  set(RLIMIT_FSIZE, bytes(l.file_size_mb), bytes(l.file_size_mb));
  set(RLIMIT_CORE, 0, 0);
  if (l.limit_address_space) set(RLIMIT_AS, bytes(l.address_space_mb), bytes(l.address_space_mb));
  if (with_processes) set(RLIMIT_NPROC, static_cast<rlim_t>(l.processes), static_cast<rlim_t>(l.processes));
  return ok;
}

std::vector<std::string> prlimit_prefix(const std::string& prlimit, const ResolvedLimits& l) {
  const auto cpu = static_cast<unsigned long long>(std::ceil(l.cpu_s));
  std::vector<std::string> v = {prlimit, "--cpu=" + std::to_string(cpu) + ":" + std::to_string(cpu + 1),
                                "--fsize=" + std::to_string(bytes(l.file_size_mb)), "--core=0",
                                "--nproc=" + std::to_string(l.processes)};
  if (l.limit_address_space) v.push_back("--as=" + std::to_string(bytes(l.address_space_mb)));
  v.push_back("--");
  return v;
}

}  // namespace gpulab::sandbox
