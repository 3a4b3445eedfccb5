// Whether a call's result came from the GPU, by volume (DESIGN.md: "a result
// must be computed by device code"): the harness counts the bytes that reached
// host memory while the submission's host function ran, by every route
// (harness/transfer_log.hpp); the lab's "host_work" (lab/lab_spec.hpp) says how
// many may, as a share of the call's inputs. Whatever buffer the bytes came
// from, the host cannot compute the answer without them.
#pragma once
#include <optional>

#include "data/dataset.hpp"
#include "grade/failure_kind.hpp"
#include "grade/harness_report.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

// The size of a case's inputs, from its manifest (never from the child).
struct InputVolume {
  unsigned long long bytes = 0;
  unsigned long long element_bytes = 1;  // the widest input element
};
InputVolume input_volume(const PartSpec& part, const DatasetCase& c);

// host_computed, with what reached the host and by which routes, when a call moved more than the
// policy allows or used host-visible memory the lab does not allow; nothing otherwise.
std::optional<Problem> host_work_problem(const TransferReport& transfers, const HostWorkPolicy& policy,
                                         const InputVolume& inputs);

}  // namespace gpulab::grade
