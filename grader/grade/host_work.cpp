// Implementation of host_work.hpp.
#include "grade/host_work.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "data/nd_array.hpp"
#include "harness/transfer_routes.hpp"

namespace gpulab::grade {

InputVolume input_volume(const PartSpec& part, const DatasetCase& c) {
  InputVolume v;
  for (const ParamSpec& p : part.params) {
    if (p.role != ParamRole::input) continue;
    const CaseFile* f = c.file("input", p.name);
    if (!f) continue;
    unsigned long long element = 1;
    try {
      element = dtype_size(parse_dtype(f->dtype));
    } catch (const std::exception&) {
      continue;  // the manifest was verified when read: a dtype it holds is known
    }
    unsigned long long count = 1;
    for (size_t d : f->shape) count *= d;
    v.bytes += count * element;
    v.element_bytes = std::max(v.element_bytes, element);
  }
  return v;
}

namespace {
std::string route_list(const TransferReport& t, bool host_visible) {
  std::string out;
  for (const RouteBytes& r : t.routes) {
    const harness::TransferRoute* route = harness::find_transfer_route(r.route);
    if (!route || route->host_visible != host_visible || r.bytes == 0) continue;
    if (!out.empty()) out += "; ";
    out += fmt::format("{} bytes by {}", r.bytes, route->words);
  }
  return out;
}
}  // namespace

std::optional<Problem> host_work_problem(const TransferReport& transfers, const HostWorkPolicy& policy,
                                         const InputVolume& inputs) {
  const std::string visible = route_list(transfers, true);
  if (!visible.empty() && !policy.host_visible_memory) {
    return Problem{
        FailureKind::host_computed,
        fmt::format("your host function used memory that kernels write and the host reads without a copy ({}): "
                    "this lab does not allow it, because the grader cannot tell what the host read from it. "
                    "Use cudaMalloc for device memory, and cudaMemcpy to look at a few results while debugging",
                    visible)};
  }
  const unsigned long long total = transfers.total_bytes();
  const double share_allowed = policy.input_fraction_to_host * static_cast<double>(inputs.bytes);
  const unsigned long long always_allowed =
      static_cast<unsigned long long>(std::max(0LL, policy.input_elements_to_host)) * inputs.element_bytes;
  if (total <= always_allowed || static_cast<double>(total) <= share_allowed) return std::nullopt;
  const std::string routes = route_list(transfers, false) + (visible.empty() ? "" : "; " + visible);
  return Problem{
      FailureKind::host_computed,
      fmt::format("{} bytes reached host memory while your host function ran ({:.0f}% of the {} bytes of its inputs: "
                  "{}); at most {:.0f}% may, and {} elements to print while debugging. The result must be computed by "
                  "a kernel on the GPU, not on the CPU from a copy of the data; if you copied results back to check "
                  "them, copy back only the few elements you print",
                  total, inputs.bytes ? 100.0 * static_cast<double>(total) / static_cast<double>(inputs.bytes) : 100.0,
                  inputs.bytes, routes, policy.input_fraction_to_host * 100, policy.input_elements_to_host)};
}

}  // namespace gpulab::grade
