// Timing a host function on the GPU the way the grader scores it and the
// benchmark reports it (one method, used by both):
//   - warm-up calls first (module loading, allocator, clocks);
//   - before every call, `prepare` sets up its inputs and resets what it
//     writes; persisting L2 lines are reset and their limit set to 0 (so an
//     access-policy window cannot keep data in L2 across calls), and the L2
//     cache is flushed by writing a buffer twice its size, so no run reads
//     data a previous run left in cache;
//   - after every call, outside the measurement, `verify` may check its
//     output; a message from it stops the runs;
//   - each run is bracketed by events on the legacy default stream with a
//     device-wide synchronisation before the stop event, so work the call left
//     on other streams (non-blocking ones included) is inside the measurement;
//   - runs continue until at least `min_runs` and `min_seconds` of timed work,
//     or `max_runs` (the grader asks for an exact number: min = max, no
//     seconds), or until `max_seconds` of wall time have passed since the
//     first timed run; the median is reported with the spread;
//   - with `phase_markers`, a marker on stderr just before the first timed
//     run and just after the last, and around each timed call (just before its
//     start event, just after its stop event completed): process/run.hpp, the
//     grader timestamps them on its own clock, which bounds what each timed
//     call can have taken (grade/timing_bound.hpp).
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace gpulab::harness {

struct TimingOptions {
  int warmup = 3;
  int min_runs = 10;
  int max_runs = 200;
  double min_seconds = 0.5;  // of timed work, summed over the runs
  double max_seconds = 0;    // of wall time from the first timed run, after 3 runs at least; 0: none
  bool flush_l2 = true;
  bool phase_markers = false;
};

struct TimingResult {
  bool ok = false;
  std::string error;                 // a CUDA error during the runs, or `verify`'s message, in words
  int failed_call = -1;              // the call `verify` rejected (counting warm-up calls from 0), or -1
  int calls = 0;                     // calls made, warm-up included
  bool l2_persisting_reset = false;  // the device has persisting L2 lines, and they were reset before each call
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
  double spread = 0;  // (third quartile - first quartile) / median
  int runs = 0;
  size_t l2_flush_bytes = 0;  // 0 when the cache was not flushed
  std::vector<double> samples_s;
};

// What runs around each call, outside the measurement; either may be empty. `call` counts
// every call from 0, warm-up ones included.
struct CallHooks {
  std::function<void(int call)> prepare;
  std::function<std::string(int call)> verify;  // "" when the output is right
};

// `call` runs the function being timed.
TimingResult time_runs(const std::function<void()>& call, const CallHooks& hooks, const TimingOptions& options);
// The same with only a `prepare` step.
TimingResult time_runs(const std::function<void()>& call, const std::function<void()>& prepare,
                       const TimingOptions& options);

// Demotes persisting L2 lines to normal and sets the persisting set-aside to 0, as before
// every timed call; for the calls made outside time_runs. False where the device has no
// persisting L2 (nothing to reset).
bool reset_persisting_l2();

// Device-to-device copy bandwidth in bytes per second, counting the bytes read
// and the bytes written (the convention of the course's bandwidth figures):
// the median of repeated cudaMemcpy over `bytes`-sized buffers.
double measure_copy_bandwidth(size_t bytes = size_t{1} << 30);

// A marker on stderr, written unbuffered and without a line of its own, that the grader
// timestamps on arrival and removes from the output (process/run.hpp): the phases of every run
// ("main", "call", "returned") that `gpulab grade --timings` shows. Measurement only: no grade
// rests on them (the timed runs' own "start"/"end" marks are written by time_runs).
void write_phase_marker(const char* name);

}  // namespace gpulab::harness
