// Whether a measured speed is physically possible (DESIGN.md, "Timing and
// performance score"): a timed call cannot move its inputs and outputs
// through memory faster than the device copies memory, nor do more
// floating-point work than its FP32 units can. A speed above either limit
// means the time is not the work's (a result kept from elsewhere, tampered
// timing): it earns nothing and is flagged for review.
#pragma once
#include <string>

#include "grade/harness_report.hpp"

namespace gpulab::grade {

// Measurements are noisy and a read-mostly kernel may beat a copy (which
// reads and writes), so only speeds clearly above the limits count: by more
// than these factors.
constexpr double kBandwidthMargin = 1.25;  // over the copy bandwidth measured in the same run
constexpr double kFlopsMargin = 1.05;      // over the FP32 peak from the device's clock and units

struct Plausibility {
  bool plausible = true;
  std::string reason;         // why not, in words (empty when plausible)
  double bytes_per_s = 0;     // the fastest call's data rate
  double flops_per_s = 0;     // the fastest call's arithmetic rate (0 when the part counts no flops)
  double peak_flops = 0;      // the device's FP32 peak (0 when unknown, e.g. on the emulator)
  double copy_bandwidth = 0;  // bytes/s, measured in the same run
};

// FP32 operations per second the device can do at most: multiprocessors x FP32 lanes per
// multiprocessor (by compute capability) x 2 (a fused multiply-add) x clock. 0 when unknown
// (an unknown architecture, no clock, or the emulator). `device` is what the grader's probe found.
double peak_fp32_flops(const DeviceIdentity& device);

// `bytes`: the inputs read once and the outputs written once; `flops`: 0 for memory-bound parts;
// `fastest_s`: the fastest timed call.
Plausibility judge_speed(double bytes, double flops, double fastest_s, double copy_bandwidth,
                         const DeviceIdentity& device);

}  // namespace gpulab::grade
