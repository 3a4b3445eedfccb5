// Tests of the volume rule for a result computed on the host (grader/grade/host_work): the bytes
// that reached host memory by any route against lab.json's host_work, the inputs' size read from
// the case, host-visible memory refused unless the lab allows it, and the sentences the student reads.
#include <catch2/catch.hpp>

#include "grade/host_work.hpp"

using gpulab::DatasetCase;
using gpulab::HostWorkPolicy;
using gpulab::grade::FailureKind;
using gpulab::grade::host_work_problem;
using gpulab::grade::InputVolume;
using gpulab::grade::TransferReport;

namespace {
TransferReport routes(std::initializer_list<std::pair<const char*, unsigned long long>> list) {
  TransferReport t;
  for (const auto& [route, bytes] : list) t.routes.push_back({route, bytes});
  return t;
}
const InputVolume kMillionFloats{4'000'000, 4};
}  // namespace

TEST_CASE("host work: nothing reaching the host is fine", "[host_work]") {
  CHECK_FALSE(host_work_problem(routes({}), HostWorkPolicy{}, kMillionFloats));
}

TEST_CASE("host work: per-block partials and a few printed elements are within the policy", "[host_work]") {
  // One partial per 512 inputs, and 16 elements printed.
  CHECK_FALSE(host_work_problem(routes({{"copy", 4'000'000 / 512 + 64}}), HostWorkPolicy{}, kMillionFloats));
  // Half the inputs exactly is still allowed; one byte more is not.
  CHECK_FALSE(host_work_problem(routes({{"copy", 2'000'000}}), HostWorkPolicy{}, kMillionFloats));
  CHECK(host_work_problem(routes({{"copy", 2'000'001}}), HostWorkPolicy{}, kMillionFloats));
}

TEST_CASE("host work: the whole input reaching the host by any copy route fails as host_computed", "[host_work]") {
  for (const char* route : {"copy", "graph_memcpy_node"}) {
    const auto p = host_work_problem(routes({{route, 4'000'000}}), HostWorkPolicy{}, kMillionFloats);
    REQUIRE(p);
    CHECK(p->kind == FailureKind::host_computed);
    CHECK_THAT(p->text, Catch::StartsWith("4000000 bytes reached host memory while your host function ran (100% of "
                                          "the 4000000 bytes of its inputs: 4000000 bytes by "));
    CHECK_THAT(p->text, Catch::Contains("at most 50% may, and 16 elements to print while debugging"));
  }
  // Routes add up: two halves make the whole.
  CHECK(host_work_problem(routes({{"copy", 2'000'000}, {"graph_memcpy_node", 2'000'000}}), HostWorkPolicy{},
                          kMillionFloats));
}

TEST_CASE("host work: tiny inputs may reach the host whole (printing while debugging)", "[host_work]") {
  const InputVolume one_int{4, 4};
  CHECK_FALSE(host_work_problem(routes({{"copy", 64}}), HostWorkPolicy{}, one_int));
  CHECK(host_work_problem(routes({{"copy", 65}}), HostWorkPolicy{}, one_int));
}

TEST_CASE("host work: host-visible memory is refused unless the lab allows it, then counted", "[host_work]") {
  for (const char* route : {"managed_memory", "page_locked_memory", "registered_memory", "host_memory_pool"}) {
    const auto p = host_work_problem(routes({{route, 4096}}), HostWorkPolicy{}, kMillionFloats);
    REQUIRE(p);
    CHECK(p->kind == FailureKind::host_computed);
    CHECK_THAT(p->text, Catch::StartsWith("your host function used memory that kernels write and the host reads "
                                          "without a copy (4096 bytes by "));
    HostWorkPolicy allowed;
    allowed.host_visible_memory = true;
    CHECK_FALSE(host_work_problem(routes({{route, 4096}}), allowed, kMillionFloats));
    CHECK(host_work_problem(routes({{route, 4'000'000}}), allowed, kMillionFloats));
  }
}

TEST_CASE("host work: a lab's own fraction and element allowance", "[host_work]") {
  HostWorkPolicy strict;
  strict.input_fraction_to_host = 0.01;
  strict.input_elements_to_host = 0;
  CHECK(host_work_problem(routes({{"copy", 40'001}}), strict, kMillionFloats));
  CHECK_FALSE(host_work_problem(routes({{"copy", 40'000}}), strict, kMillionFloats));
}

TEST_CASE("host work: an input's volume comes from the case's manifest", "[host_work]") {
  gpulab::PartSpec part;
  part.params = {
      {"in", gpulab::ParamRole::input}, {"mask", gpulab::ParamRole::input}, {"out", gpulab::ParamRole::output}};
  DatasetCase c;
  c.files = {{"in", "input", "in.npy", "float32", {1000, 3}, ""},
             {"mask", "input", "mask.npy", "float64", {5}, ""},
             {"out", "expected", "out.npy", "float32", {1000, 3}, ""}};
  const InputVolume v = gpulab::grade::input_volume(part, c);
  CHECK(v.bytes == 1000 * 3 * 4 + 5 * 8);
  CHECK(v.element_bytes == 8);
}
