// What is wrong at a source line, judged from its counts, and a sentence for
// the student: uncoalesced global accesses, shared-memory bank conflicts,
// atomics that many lanes aim at one address, and divergent warps.
#pragma once
#include <vector>

#include "profile/profile_report.hpp"

namespace gpulab::profile {

// The problems of every line of every kernel, worst (most wasted transactions) first.
std::vector<Finding> find_problems(const std::vector<KernelReport>& kernels);

}  // namespace gpulab::profile
