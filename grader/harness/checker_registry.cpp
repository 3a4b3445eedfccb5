// Implementation of checker_registry.hpp. It is linked as an object (never
// left in an archive), so a submission that defines
// gpulab_harness_adopt_checker itself fails to link instead of capturing the
// checker.
#include "harness/checker_registry.hpp"

namespace {
const gpulab::harness::PartBinding* adopted = nullptr;
size_t adopted_count = 0;
int registrations = 0;
}  // namespace

extern "C" void gpulab_harness_adopt_checker(const gpulab::harness::PartBinding* table, size_t count) {
  ++registrations;
  adopted = table;
  adopted_count = count;
}

namespace gpulab::harness {

const PartBinding* checker_for(const std::string& part, std::string& problem) {
  if (registrations == 0) {
    problem = "this installation has no checker for the lab (lab.json's \"checker\" is missing or not installed)";
    return nullptr;
  }
  if (registrations > 1) {
    problem = "more than one checker registered itself: the program was tampered with";
    return nullptr;
  }
  for (size_t i = 0; i < adopted_count; ++i)
    if (part == adopted[i].part) return &adopted[i];
  problem = "the lab's checker does not implement part '" + part + "'";
  return nullptr;
}

bool checker_tampered() { return registrations > 1; }

}  // namespace gpulab::harness
