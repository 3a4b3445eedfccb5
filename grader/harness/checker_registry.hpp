// The lab's checker inside a harness program: a trusted implementation of
// every part (lab.json's "checker"), compiled with internal linkage into an
// object of its own (grader/harness/checker_generator) and linked with the
// submission, so the harness can compute a trusted result for every timed
// call on the device. The checker object registers its table from a static
// constructor; the submission cannot name any of its symbols. A second
// registration means the program was tampered with, and the harness then
// trusts no checker.
#pragma once
#include <cstddef>
#include <string>

#include "harness/harness_binding.hpp"

// Called once, by the checker object's constructor.
extern "C" void gpulab_harness_adopt_checker(const gpulab::harness::PartBinding* table, size_t count);

namespace gpulab::harness {

// The checker's binding for `part`, or nullptr with the reason in `problem`.
const PartBinding* checker_for(const std::string& part, std::string& problem);
// More than one table registered itself: something in the program (the submission) called the
// registration too. No checker is trusted then, and the speed test fails for review.
bool checker_tampered();

}  // namespace gpulab::harness
