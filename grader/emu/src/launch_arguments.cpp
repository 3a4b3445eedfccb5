// launch_arguments.hpp: the pointer arguments of a launch, checked against host memory.
#include "launch_arguments.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "block_runner.hpp"
#include "diagnostics.hpp"
#include "host_regions.hpp"

namespace gpulab::emu {
namespace {

std::string ordinal(unsigned n) {
  const unsigned last = n % 10, tens = n % 100;
  const char* suffix = (last == 1 && tens != 11)   ? "st"
                       : (last == 2 && tens != 12) ? "nd"
                       : (last == 3 && tens != 13) ? "rd"
                                                   : "th";
  return std::to_string(n) + suffix;
}

std::string hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

void report_host_argument(const LaunchState& launch, const PointerArgument& arg, HostRegion region) {
  Diagnostic d;
  d.kind = "illegal-address";
  d.severity = "error";
  d.kernel = launch.request.kernel_name;
  d.file = launch.request.file;
  d.line = launch.request.line;
  d.message = "illegal address: the " + ordinal(arg.index + 1) + " argument of " + launch.where() + " (" +
              hex(arg.value) + ") points into " + host_region_words(region) +
              ", which a GPU cannot read or write: its kernel fails there with cudaErrorIllegalAddress, "
              "reported by the next synchronising call. Pass device memory instead: allocate it with "
              "cudaMalloc and copy the data in with cudaMemcpy (or use cudaMallocManaged, or cudaMallocHost "
              "for memory both sides reach). The kernel did not run.";
  report(std::move(d), cudaErrorIllegalAddress);
}

}  // namespace

bool refuse_host_pointer_arguments(const LaunchState& launch, bool accesses_checked) {
  if (!launch.body.pointer_arguments) return false;
  std::vector<PointerArgument> args;
  launch.body.pointer_arguments(launch.body.closure, args);
  if (args.empty()) return false;
  HostMemoryMap map;  // read only for a pointer that no cheaper test places
  bool map_read = false;
  for (const PointerArgument& arg : args) {
    if (gpu_reachable(arg.value)) continue;
    const HostRegion region = unreachable_host_region(arg.value, map, map_read);
    if (region == HostRegion::none) continue;
    if (accesses_checked && region != HostRegion::variable) continue;
    report_host_argument(launch, arg, region);
    return true;
  }
  return false;
}

}  // namespace gpulab::emu
