// The limits a submission's compile and runs are held to (lab.json "limits",
// lab-wide with a per-part override; defaults in docs/lab-format.md), and
// turning them into kernel resource limits (setrlimit / prlimit).
#pragma once
#include <string>
#include <vector>

namespace gpulab::sandbox {

// 0 means "the default", worked out by resolve() for the machine and backend.
struct ResourceLimits {
  double wall_s = 0;        // wall clock per run; the whole process tree is killed (default 30)
  double cpu_s = 0;         // CPU time per process (default wall_s x CPU cores: the emulator uses them all)
  double memory_mb = 0;     // memory a run may use (default 4096): address space per process on the
                            // emulator; resident memory of the whole run on the cuda backend
  double file_size_mb = 0;  // largest file a process may write (default 1024)
  double processes = 0;     // processes and threads in the sandbox (default 256, more on many-core machines)
  double output_kb = 0;     // stdout+stderr together; a run that prints more is stopped (default 1024)
  double compile_s = 0;     // wall clock of the compile (lab-wide only; default 300)
};

// The fields of lab.json's "limits" object, each a positive number (read by lab/lab_spec.cpp).
struct LimitField {
  const char* name;
  double ResourceLimits::*member;
  bool whole;  // a count (processes), not a measure
};
const std::vector<LimitField>& limit_fields();

// What the limits are on this machine: every 0 replaced by its default. `emulator_workers` is
// the number of threads the emulator runs blocks on (its per-worker stack reservations are
// address space that the memory limit must leave room for).
struct ResolvedLimits {
  double wall_s, cpu_s, memory_mb, file_size_mb, output_kb, compile_s;
  long processes;
  bool limit_address_space;  // false on the cuda backend: the driver maps huge address ranges
  long address_space_mb;     // memory_mb plus the emulator's own reservations
  // cuda backend: resident memory of the run's whole process tree, watched by the grader
  // (process::ProcessOptions::resident_limit_bytes): memory_mb plus the CUDA runtime's own
  // (kResidentMarginMb). 0 on the emulator, where the address space is limited instead.
  long resident_limit_mb;
  // A run of several cases (the harness's, one after another): the most one case may take, from
  // its mark (process::kStepMarker) to the next; wall_s, cpu_s and output_kb are then the whole
  // run's. 0: a run of one case.
  double step_s = 0;
};
// What the CUDA runtime and driver themselves keep resident in a process, on top of the
// submission's memory_mb (a context and its libraries take a few hundred MiB).
constexpr long kResidentMarginMb = 1024;
ResolvedLimits resolve(const ResourceLimits& limits, bool cuda_backend, unsigned cpu_cores, unsigned emulator_workers);
unsigned emulator_reserved_mb_per_worker();

// Applies the limits to the calling process (between fork and exec; async-signal-safe).
// `processes` is left out when `with_processes` is false. Returns false if one could not be set.
bool apply_rlimits(const ResolvedLimits& limits, bool with_processes);

// The same limits as a `prlimit` command prefix (util-linux), for use inside the sandbox,
// where the process count is per sandbox: {"/usr/bin/prlimit", "--cpu=..", ..., "--"}.
std::vector<std::string> prlimit_prefix(const std::string& prlimit, const ResolvedLimits& limits);

}  // namespace gpulab::sandbox
