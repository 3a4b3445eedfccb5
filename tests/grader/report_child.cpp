// A stand-in for a submission's process that writes its own report, for the
// untrusted-report tests (test_untrusted_reports.cpp): it computes the right
// outputs of the test lab "unit_speed" (out = 3 * in) like a correct run, and
// writes a well-formed result.json as the harness would, then changes it as
// `variant.json` beside the program says: {"set": [[json pointer, value],
// ...], "remove": [json pointer, ...]} edits the report, {"raw": "text"}
// replaces it with text, {"raw_repeat": ["text", n]} with n copies of a text,
// {"directory": true} leaves a folder where the report should be,
// {"invalid_utf8": true} writes a message that is not UTF-8. Without a
// variant the report is the control: a correct, plausible run, whose timed
// calls (1 ms each, as it reports) are marked on stderr as the harness marks
// them (the phase, and each call), so that the grader's own clock agrees with it.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <chrono>
#include <cstdio>
#include <thread>

#include "data/npy_io.hpp"
#include "process/run.hpp"

namespace {
using nlohmann::json;

gpulab::NdArray tripled(const std::string& input) {
  const gpulab::NdArray in = gpulab::read_npy(input);
  std::vector<int32_t> out(in.as<int32_t>().begin(), in.as<int32_t>().end());
  for (int32_t& x : out) x *= 3;
  return gpulab::NdArray::from(out);
}

json well_formed(const json& request) {
  json result = {{"part", request.at("part")},
                 {"status", "ok"},
                 {"seconds", 0.001},
                 {"kernel_launches", 1},
                 {"inputs_modified", json::array()},
                 {"guard_overruns", json::array()},
                 {"transfers", {{"routes", json::array()}}}};
  if (request.contains("timing")) {
    const int runs = request.at("timing").value("min_runs", 10);
    result["device"] = {{"name", "gpulab CPU emulator (sm_90 limits)"}, {"uuid", std::string(32, '0')}};
    result["timing"] = {{"median_s", 0.001},
                        {"min_s", 0.001},
                        {"max_s", 0.001},
                        {"spread", 0},
                        {"runs", runs},
                        {"calls", runs + 3},
                        {"l2_flush_bytes", 0},
                        {"l2_persisting_reset", false},
                        {"samples_s", std::vector<double>(static_cast<size_t>(runs), 0.001)}};
    result["verification"] = {{"status", "checked"}, {"calls_checked", runs + 3}};
  }
  if (request.contains("recheck")) {
    result["recheck"] = {{"inputs_modified", json::array()}, {"guard_overruns", json::array()}};
  }
  return result;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  json request;
  std::ifstream(argv[2]) >> request;
  // One case per request here (the harness's request lists a part's cases; the tests ask for one).
  const json& one = request.at("cases").at(0);
  const std::string dir = one.at("output_dir");
  std::string input;
  for (const auto& p : one.at("params"))
    if (p.at("role") == "input") input = p.at("file");
  if (!request.value("probe", false)) gpulab::write_npy(dir + "/output_out.npy", tripled(input));
  if (request.contains("recheck")) gpulab::write_npy(dir + "/recheck_out.npy", tripled(request.at("recheck").at("in")));

  if (request.contains("timing")) {
    const int runs = request.at("timing").value("min_runs", 10);
    const auto mark = [](const char* name) {
      std::fprintf(stderr, "%s%s%c\n", gpulab::process::kMarkerStart, name, gpulab::process::kMarkerEnd);
      std::fflush(stderr);
    };
    mark("start");
    for (int i = 0; i < runs; ++i) {
      mark("call_begin");
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      mark("call_end");
    }
    mark("end");
  }
  json variant = json::object();
  const std::filesystem::path variant_file = std::filesystem::path(argv[0]).parent_path() / "variant.json";
  if (std::filesystem::exists(variant_file)) std::ifstream(variant_file) >> variant;
  const std::string result_path = one.at("result");
  if (variant.value("directory", false)) {
    std::filesystem::create_directories(result_path);
    return 0;
  }
  std::string text;
  if (variant.value("invalid_utf8", false)) {
    text = "{\"part\": \"triple\", \"status\": \"ok\", \"message\": \"\xff\xfe\xc3\"}";
  } else if (variant.contains("raw")) {
    text = variant.at("raw").get<std::string>();
  } else if (variant.contains("raw_repeat")) {
    const std::string piece = variant.at("raw_repeat").at(0);
    for (int i = 0; i < variant.at("raw_repeat").at(1).get<int>(); ++i) text += piece;
  } else {
    json result = well_formed(request);
    for (const json& edit : variant.value("set", json::array()))
      result[json::json_pointer(edit.at(0).get<std::string>())] = edit.at(1);
    for (const json& pointer : variant.value("remove", json::array())) {
      const json::json_pointer p(pointer.get<std::string>());
      result[p.parent_pointer()].erase(p.back());
    }
    text = result.dump(1);
  }
  std::ofstream(result_path, std::ios::binary) << text;
  return 0;
}
