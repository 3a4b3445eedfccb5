// What is wrong at a source line, judged from its counts, and a sentence for
// the student: uncoalesced global accesses, shared-memory bank conflicts,
// atomics that many lanes aim at one address, and divergent warps.
// A finding is a hint only where the emulator's counts are the GPU's: the
// patterns whose counts agree with Nsight Compute within 10% in
// docs/profile-agreement.md. Those are global sectors and shared-memory bank
// passes of sites whose lanes are paired exactly (each lane ran the site as
// often as the others since the last barrier); lanes per atomic address and
// active lanes are not counters Nsight Compute gives, and a site paired by
// count (a loop whose lanes skip different iterations) is approximate, so
// those findings stay in the profile as observations, not hints.
#pragma once
#include <vector>

#include "profile/profile_report.hpp"

namespace gpulab::profile {

// The problems of every line of every kernel: the hints (worst, i.e. most wasted transactions,
// first), then the findings that are not hints (Finding::hint false, with the reason).
std::vector<Finding> find_problems(const std::vector<KernelReport>& kernels);

}  // namespace gpulab::profile
