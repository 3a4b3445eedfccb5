// Implementation of plausibility.hpp.
#include "grade/plausibility.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace gpulab::grade {

namespace {
// FP32 lanes per multiprocessor, from NVIDIA's CUDA C++ Programming Guide (arithmetic
// instruction throughput, 32-bit floating-point add/multiply/multiply-add). 0: not known.
int fp32_lanes_per_multiprocessor(int major, int minor) {
  switch (major) {
    case 5: return 128;
    case 6: return minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return minor == 0 ? 64 : 128;
    case 9: return 128;
    case 10: return 128;
    case 12: return 128;
    default: return 0;
  }
}
}  // namespace

double peak_fp32_flops(const DeviceIdentity& device) {
  if (device.emulated) return 0;
  const std::string& cc = device.compute_capability;
  int major = 0, minor = 0;
  if (std::sscanf(cc.c_str(), "%d.%d", &major, &minor) != 2) return 0;
  const double lanes = fp32_lanes_per_multiprocessor(major, minor);
  const double clock_hz = static_cast<double>(device.clock_khz) * 1e3;
  const double sms = static_cast<double>(device.multiprocessors);
  return lanes * sms * 2.0 * clock_hz;
}

Plausibility judge_speed(double bytes, double flops, double fastest_s, double copy_bandwidth,
                         const DeviceIdentity& device) {
  Plausibility p;
  p.copy_bandwidth = copy_bandwidth;
  p.peak_flops = flops > 0 ? peak_fp32_flops(device) : 0;
  if (fastest_s <= 0) return p;
  p.bytes_per_s = bytes / fastest_s;
  p.flops_per_s = flops / fastest_s;
  if (copy_bandwidth > 0 && p.bytes_per_s > kBandwidthMargin * copy_bandwidth) {
    p.plausible = false;
    p.reason = fmt::format(
        "the fastest timed call moved its inputs and outputs at {:.1f} GB/s, {:.0f}% of the copy bandwidth measured "
        "on this device in the same run ({:.1f} GB/s); no code reads and writes memory that much faster than a copy "
        "(the limit is {:.0f}% of it)",
        p.bytes_per_s / 1e9, 100 * p.bytes_per_s / copy_bandwidth, copy_bandwidth / 1e9, 100 * kBandwidthMargin);
  } else if (p.peak_flops > 0 && p.flops_per_s > kFlopsMargin * p.peak_flops) {
    p.plausible = false;
    p.reason = fmt::format(
        "the fastest timed call ran at {:.1f} GFLOP/s, {:.0f}% of this device's FP32 peak ({:.1f} GFLOP/s: "
        "multiprocessors x FP32 lanes x 2 x clock); no code on the FP32 units can exceed it (the limit is {:.0f}% of "
        "it). A kernel that emulates FP32 on the tensor cores (split precision, 3xTF32) could: if this one does, "
        "its speed is real and may be awarded by hand",
        p.flops_per_s / 1e9, 100 * p.flops_per_s / p.peak_flops, p.peak_flops / 1e9, 100 * kFlopsMargin);
  }
  return p;
}

}  // namespace gpulab::grade
