// The profile's reader side (grader/profile/): occupancy on sm_90, ptxas's
// register report, and which lines the findings name, with what.
#include <catch2/catch.hpp>

#include "profile/counters.hpp"
#include "profile/kernel_registers.hpp"
#include "profile/occupancy.hpp"
#include "profile/profile_advice.hpp"

using namespace gpulab::profile;
using gpulab::emu::AccessSiteKind;

TEST_CASE("occupancy on sm_90") {
  const ArchLimits h100 = *arch_limits("sm_90");
  Occupancy o = occupancy(h100, 256, 0);
  CHECK(o.blocks_per_sm == 8);
  CHECK(o.fraction == Approx(1.0));
  CHECK(o.limited_by == "warps");
  o = occupancy(h100, 32, 0);  // 32 blocks of one warp: half the SM
  CHECK(o.blocks_per_sm == 32);
  CHECK(o.fraction == Approx(0.5));
  CHECK(o.limited_by == "blocks");
  o = occupancy(h100, 256, 48 * 1024);  // 49 KiB per block with the reserve: 4 blocks
  CHECK(o.blocks_per_sm == 4);
  CHECK(o.limited_by == "shared memory");
  o = occupancy(h100, 256, 0, 128);  // 128 registers: 65536 / (128 * 32) = 16 warps = 2 blocks
  CHECK(o.blocks_per_sm == 2);
  CHECK(o.limited_by == "registers");
  CHECK(o.registers_known);
  CHECK_FALSE(arch_limits("sm_12").has_value());
}

TEST_CASE("ptxas register report") {
  const std::string out =
      "ptxas info    : Compiling entry function '_Z9coalescedPKfPf' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z9coalescedPKfPf\n"
      "ptxas info    : Used 10 registers, used 0 barriers, 368 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z5scaleILi256EEvPfi' for 'sm_90'\n"
      "ptxas info    : Used 24 registers, used 1 barriers, 364 bytes cmem[0]\n";
  const auto r = parse_ptxas_registers(out);
  CHECK(r.at("coalesced") == 10);
  CHECK(r.at("scale<256>") == 24);
  CHECK(r.at("scale") == 24);
}

namespace {
KernelReport kernel_with(AccessSiteKind kind, gpulab::emu::SiteCounts c) {
  KernelReport k;
  k.kernel = "k";
  k.lines.push_back(LineProfile{"/course/f.cu", 23, "k(float*)", kind, c});
  return k;
}
}  // namespace

TEST_CASE("findings: what they name and when they stay quiet") {
  gpulab::emu::SiteCounts c;
  c.requests = 10, c.lanes = 320, c.lane_slots = 320, c.sectors = 320, c.ideal_sectors = 40;
  c.multi_lane_requests = 10, c.lane_stride = 4096, c.width = 4;
  auto f = find_problems({kernel_with(AccessSiteKind::global_load, c)});
  REQUIRE(f.size() == 1);
  CHECK(f[0].problem == Problem::uncoalesced);
  CHECK(f[0].line == 23);
  CHECK_THAT(f[0].sentence, Catch::StartsWith("f.cu:23 (kernel 'k'): each warp's load touches 32.0 sectors of 32 "
                                              "bytes where 4.0 would do (8.0x the memory traffic): consecutive "
                                              "threads read addresses 4096 bytes apart"));
  c.sectors = 44;  // 10% over the ideal: not worth a line
  CHECK(find_problems({kernel_with(AccessSiteKind::global_load, c)}).empty());

  gpulab::emu::SiteCounts s;
  s.requests = 4, s.lanes = 128, s.lane_slots = 128, s.wavefronts = 128, s.ideal_wavefronts = 4, s.worst_ways = 32;
  s.multi_lane_requests = 4, s.lane_stride = 128, s.width = 4;
  f = find_problems({kernel_with(AccessSiteKind::shared_load, s)});
  REQUIRE(f.size() == 1);
  CHECK(f[0].problem == Problem::bank_conflicts);
  CHECK_THAT(f[0].sentence, Catch::Contains("32-way bank conflict") && Catch::Contains("[32][33]"));

  gpulab::emu::SiteCounts a;
  a.requests = 4, a.lanes = 128, a.lane_slots = 128, a.same_address_lanes = 128, a.distinct_addresses = 4;
  f = find_problems({kernel_with(AccessSiteKind::global_atomic, a)});
  REQUIRE(f.size() == 1);
  CHECK(f[0].problem == Problem::atomic_contention);

  gpulab::emu::SiteCounts d;
  d.requests = 8, d.lanes = 8 * 4, d.lane_slots = 8 * 32, d.wavefronts = 8, d.ideal_wavefronts = 8;
  f = find_problems({kernel_with(AccessSiteKind::shared_load, d)});
  REQUIRE(f.size() == 1);
  CHECK(f[0].problem == Problem::divergence);
  CHECK_THAT(f[0].sentence, Catch::Contains("only 4.0 of 32 lanes"));
}

TEST_CASE("findings are hints only for the patterns whose counts agree with Nsight Compute") {
  // Sectors and bank passes of a site whose lanes are paired exactly: a hint.
  gpulab::emu::SiteCounts c;
  c.requests = 10, c.lanes = 320, c.lane_slots = 320, c.sectors = 320, c.ideal_sectors = 40;
  c.multi_lane_requests = 10, c.lane_stride = 4096, c.width = 4;
  auto f = find_problems({kernel_with(AccessSiteKind::global_load, c)});
  REQUIRE(f.size() == 1);
  CHECK(f[0].hint);
  CHECK(f[0].unconfirmed.empty());
  // More than a tenth of its requests paired by count (lanes skipped different iterations): not a hint.
  c.approximate_requests = 2;
  f = find_problems({kernel_with(AccessSiteKind::global_load, c)});
  REQUIRE(f.size() == 1);
  CHECK_FALSE(f[0].hint);
  CHECK_THAT(f[0].unconfirmed, Catch::Contains("approximate"));
  c.approximate_requests = 1;  // a tenth: the counts stay within 10%
  CHECK(find_problems({kernel_with(AccessSiteKind::global_load, c)})[0].hint);
  // Contended atomics and divergence: Nsight Compute has no counter for them.
  gpulab::emu::SiteCounts a;
  a.requests = 4, a.lanes = 128, a.lane_slots = 128, a.same_address_lanes = 128, a.distinct_addresses = 4;
  f = find_problems({kernel_with(AccessSiteKind::global_atomic, a)});
  REQUIRE(f.size() == 1);
  CHECK_FALSE(f[0].hint);
  gpulab::emu::SiteCounts d;
  d.requests = 8, d.lanes = 8 * 4, d.lane_slots = 8 * 32, d.wavefronts = 8, d.ideal_wavefronts = 8;
  f = find_problems({kernel_with(AccessSiteKind::shared_load, d)});
  REQUIRE(f.size() == 1);
  CHECK_FALSE(f[0].hint);
  // Hints come first, whatever the others waste.
  KernelReport k = kernel_with(AccessSiteKind::shared_load, d);
  c.approximate_requests = 0;
  k.lines.push_back(LineProfile{"/course/f.cu", 30, "k(float*)", AccessSiteKind::global_load, c});
  d.lanes = 8000 * 4, d.lane_slots = 8000 * 32, d.requests = 8000;  // far more waste than the uncoalesced line
  k.lines[0].counts = d;
  f = find_problems({k});
  REQUIRE(f.size() == 2);
  CHECK(f[0].hint);
  CHECK(f[0].line == 30);
  CHECK_FALSE(f[1].hint);
}

TEST_CASE("Nsight Compute's CSV: summed per kernel, thousands separators read") {
  const std::string csv =
      "==PROF== Connected to process 524\n"
      "c[0] = 64.0\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
      "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"524\",\"p\",\"h\",\"k\",\"1\",\"7\",\"(32, 8, 1)\",\"(2, 8, 1)\",\"0\",\"9.0\",\"Command line profiler "
      "metrics\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"sector\",\"270,336\"\n"
      "\"1\",\"524\",\"p\",\"h\",\"k\",\"1\",\"7\",\"(32, 8, 1)\",\"(2, 8, 1)\",\"0\",\"9.0\",\"Command line profiler "
      "metrics\",\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"sector\",\"64\"\n"
      "\"1\",\"524\",\"p\",\"h\",\"k\",\"1\",\"7\",\"(32, 8, 1)\",\"(2, 8, 1)\",\"0\",\"9.0\",\"Command line profiler "
      "metrics\",\"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum\",\"\",\"3\"\n";
  const KernelCounters c = parse_ncu_csv(csv);
  CHECK(c.at("k").at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 270400);
  CHECK(c.at("k").at("global atomic requests (atom + red)") == 3);
  const std::string rows =
      counters_table("f", {{"k", {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 270400}}}}, c);
  CHECK_THAT(rows,
             Catch::Contains("| f | k | l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum | 270400 | 270400 | +0.0% |"));
}
