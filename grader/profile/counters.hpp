// The counters the emulator's profile and Nsight Compute both give, per
// kernel, under Nsight Compute's metric names, so that the two can be put
// side by side (`gpulab grade --counters`, docs/performance.md): global load
// and store requests and sectors, shared-memory load and store wavefronts and
// bank conflicts, global atomic requests.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "profile/profile_report.hpp"

namespace gpulab::profile {

// kernel -> metric -> total over the run's launches of that kernel
using KernelCounters = std::map<std::string, std::map<std::string, double>>;

// The metrics, in table order, as `ncu --metrics` takes them.
const std::vector<std::string>& counter_metrics();

// The emulator's totals under those names, and under ideal_of(sectors metric) the sectors its
// requests would need if coalesced (what a hint's waste is measured against).
KernelCounters counters_of(const ProfileReport& report);
std::string ideal_of(const std::string& metric);

// Parses `ncu --csv --print-units base --print-kernel-base function` output (values with
// thousands separators), summing each metric over the launches of each kernel.
KernelCounters parse_ncu_csv(const std::string& output);

// Markdown rows "| label | kernel | metric | emulator | Nsight Compute | difference |" for every
// metric either side counted; differences over 10% are marked.
std::string counters_table(const std::string& label, const KernelCounters& emulator, const KernelCounters& gpu);

}  // namespace gpulab::profile
