// Tests of the resource limits (grader/sandbox/resource_limits) and of their
// place in lab.json (grader/lab/lab_spec): defaults, inheritance from the lab
// to its parts, errors that name the field, and the prlimit options.
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "lab/lab_spec.hpp"
#include "sandbox/resource_limits.hpp"

using gpulab::sandbox::resolve;
using gpulab::sandbox::ResourceLimits;
using nlohmann::json;

namespace {
json lab_with(const json& lab_limits, const json& part_extra) {
  json part = {
      {"name", "int"},
      {"points", 10},
      {"function", "f"},
      {"params",
       {{{"name", "in"}, {"role", "input"}, {"dtype", "int32"}, {"shape", {"n"}}}, {{"name", "n"}, {"role", "size"}}}},
      {"check", {{"kind", "exact"}}},
      {"datasets",
       {{{"family", "f"}, {"sizes", {{{"n", 1}}}}, {"inputs", {{"in", {{"dist", "constant"}, {"value", 1}}}}}}}}};
  part.update(part_extra);
  json lab = {{"lab", "limits_lab"}, {"time_limit_s", 20}, {"parts", {part}}};
  if (!lab_limits.is_null()) lab["limits"] = lab_limits;
  return lab;
}
}  // namespace

TEST_CASE("limits: defaults are worked out for the machine and the backend", "[limits]") {
  const auto r = resolve({}, false, 8, 8);
  CHECK(r.wall_s == 30);
  CHECK(r.cpu_s == 30 * 8);  // the emulator keeps every core busy
  CHECK(r.memory_mb == 4096);
  CHECK(r.file_size_mb == 1024);
  CHECK(r.output_kb == 1024);
  CHECK(r.compile_s == 300);
  CHECK(r.processes == 256);
  CHECK(r.limit_address_space);
  // The emulator's stack reservations (1024 fibers of 68 KiB per worker) come on top.
  CHECK(r.address_space_mb == 4096 + 512 + 8 * gpulab::sandbox::emulator_reserved_mb_per_worker());
  CHECK(gpulab::sandbox::emulator_reserved_mb_per_worker() >= 68);

  CHECK(resolve({}, false, 200, 4).processes == 2 * 200 + 64);  // threads of many-core machines
  CHECK_FALSE(resolve({}, true, 8, 8).limit_address_space);     // the CUDA driver maps huge ranges

  ResourceLimits set;
  set.wall_s = 5;
  set.cpu_s = 7;
  set.memory_mb = 100;
  set.processes = 12;
  const auto s = resolve(set, false, 8, 2);
  CHECK(s.wall_s == 5);
  CHECK(s.cpu_s == 7);
  CHECK(s.processes == 12);
  CHECK(s.address_space_mb == 100 + 512 + 2 * gpulab::sandbox::emulator_reserved_mb_per_worker());
}

TEST_CASE("limits: a limits object overrides what it names and nothing else", "[limits]") {
  const auto lab =
      gpulab::parse_lab_spec(lab_with(json{{"memory_mb", 256}, {"output_kb", 8}}, json::object()), "x/lab.json");
  CHECK(lab.limits.wall_s == 20);  // time_limit_s
  CHECK(lab.limits.memory_mb == 256);
  CHECK(lab.limits.output_kb == 8);
  CHECK(lab.limits.processes == 0);  // still "the default"

  auto error = [](const json& limits) {
    try {
      gpulab::parse_lab_spec(lab_with(limits, json::object()), "x/lab.json");
    } catch (const gpulab::LabSpecError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error(json{{"memory", 1}}) ==
        "x/lab.json: limits.memory: unknown key: did you mean 'memory_mb'? (the keys allowed "
        "here: wall_s, cpu_s, memory_mb, file_size_mb, processes, output_kb, compile_s)");
  CHECK(error(json{{"wall_s", 0}}) == "x/lab.json: limits.wall_s: must be a number > 0, not 0");
  CHECK(error(json{{"processes", "many"}}) ==
        "x/lab.json: limits.processes: must be a whole number >= 1, not the string 'many'");
  CHECK(error(json{{"processes", 2.5}}) == "x/lab.json: limits.processes: must be a whole number >= 1, not 2.5");
  CHECK_THAT(error(json::array()), Catch::StartsWith("x/lab.json: limits: must be an object of limits") &&
                                       Catch::EndsWith("not an empty list"));
}

TEST_CASE("limits: prlimit gets every limit, and no address-space limit on the cuda backend", "[limits]") {
  ResourceLimits set;
  set.wall_s = 4;
  set.cpu_s = 10;
  set.memory_mb = 100;
  set.file_size_mb = 2;
  set.processes = 48;
  const auto emu = gpulab::sandbox::prlimit_prefix("/usr/bin/prlimit", resolve(set, false, 2, 2));
  const std::vector<std::string> want = {"/usr/bin/prlimit", "--cpu=10:11", "--fsize=2097152", "--core=0",
                                         "--nproc=48"};
  CHECK(std::equal(want.begin(), want.end(), emu.begin()));
  const long as_mb = 100 + 512 + 2 * gpulab::sandbox::emulator_reserved_mb_per_worker();
  CHECK(std::find(emu.begin(), emu.end(), "--as=" + std::to_string(as_mb * 1024 * 1024)) != emu.end());
  CHECK(emu.back() == "--");
  const auto cuda = gpulab::sandbox::prlimit_prefix("/usr/bin/prlimit", resolve(set, true, 2, 2));
  CHECK(std::none_of(cuda.begin(), cuda.end(), [](const std::string& a) { return a.rfind("--as", 0) == 0; }));
  CHECK(std::find(cuda.begin(), cuda.end(), "--nproc=48") != cuda.end());
}

TEST_CASE("limits in lab.json: lab-wide, overridden per part, with time_limit_s as the wall limit", "[limits]") {
  SECTION("no limits object: time_limit_s is the wall limit, the rest defaults") {
    const auto lab = gpulab::parse_lab_spec(lab_with(nullptr, json::object()), "lab.json");
    CHECK(lab.parts[0].time_limit_s == 20);
    CHECK(lab.parts[0].limits.wall_s == 20);
    CHECK(lab.parts[0].limits.memory_mb == 0);
  }
  SECTION("lab-wide limits reach every part; a part's own win") {
    const auto lab = gpulab::parse_lab_spec(lab_with(json{{"memory_mb", 512}, {"processes", 32}, {"compile_s", 90}},
                                                     json{{"limits", {{"memory_mb", 2048}, {"wall_s", 5}}}}),
                                            "lab.json");
    CHECK(lab.limits.compile_s == 90);
    CHECK(lab.limits.wall_s == 20);
    const auto& part = lab.parts[0];
    CHECK(part.limits.memory_mb == 2048);
    CHECK(part.limits.processes == 32);
    CHECK(part.limits.wall_s == 5);
    CHECK(part.time_limit_s == 5);
  }
  SECTION("a part's time_limit_s is its wall limit") {
    const auto lab = gpulab::parse_lab_spec(lab_with(json{{"wall_s", 9}}, json{{"time_limit_s", 3}}), "lab.json");
    CHECK(lab.time_limit_s == 9);
    CHECK(lab.parts[0].time_limit_s == 3);
  }
  SECTION("errors name the file, the JSON path, the part and the limit") {
    CHECK_THROWS_WITH(gpulab::parse_lab_spec(lab_with(json{{"memry_mb", 1}}, json::object()), "x/lab.json"),
                      Catch::StartsWith("x/lab.json: limits.memry_mb: unknown key: did you mean 'memory_mb'?"));
    CHECK_THROWS_WITH(gpulab::parse_lab_spec(lab_with(nullptr, json{{"limits", {{"cpu_s", -1}}}}), "x/lab.json"),
                      "x/lab.json: parts[0].limits.cpu_s (part 'int'): must be a number > 0, not -1");
    CHECK_THROWS_WITH(gpulab::parse_lab_spec(lab_with(nullptr, json{{"limits", {{"compile_s", 10}}}}), "x/lab.json"),
                      Catch::Contains("parts[0].limits.compile_s (part 'int'): limit 'compile_s' is lab-wide"));
  }
}
