// Timing a host function on the GPU the way the grader scores it and the
// benchmark reports it (one method, used by both):
//   - warm-up calls first (module loading, allocator, clocks);
//   - before every timed call, `prepare` resets what the call writes and the
//     L2 cache is flushed by writing a buffer twice its size, so no run reads
//     data a previous run left in cache;
//   - each run is bracketed by events on the legacy default stream with a
//     device-wide synchronisation before the stop event, so work the call left
//     on other streams (non-blocking ones included) is inside the measurement;
//   - runs continue until at least `min_runs` and `min_seconds` of timed work,
//     or `max_runs`; the median is reported with the spread.
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
  bool flush_l2 = true;
};

struct TimingResult {
  bool ok = false;
  std::string error;          // a CUDA error during the timed runs, in words
  double median_s = 0;
  double min_s = 0;
  double max_s = 0;
  double spread = 0;          // (third quartile - first quartile) / median
  int runs = 0;
  size_t l2_flush_bytes = 0;  // 0 when the cache was not flushed
  std::vector<double> samples_s;
};

// `call` runs the function being timed; `prepare` (may be empty) runs before
// each call, outside the measurement.
TimingResult time_runs(const std::function<void()>& call, const std::function<void()>& prepare,
                       const TimingOptions& options);

// Device-to-device copy bandwidth in bytes per second, counting the bytes read
// and the bytes written (the convention of the course's bandwidth figures):
// the median of repeated cudaMemcpy over `bytes`-sized buffers.
double measure_copy_bandwidth(size_t bytes = size_t{1} << 30);

}  // namespace gpulab::harness
