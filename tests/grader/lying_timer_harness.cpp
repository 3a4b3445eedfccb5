// A stand-in for a harness program whose timing was tampered with, for the
// plausibility test of the speed score (test_performance.cpp): it computes
// the correct outputs of the test lab "unit_speed" (out = 3 * in) for the
// timed and the recheck inputs, and reports every timed call as 1 ns, every
// call checked, on the emulator (the identity the grader's own probe sees).
// Only the physical limits can tell that the time is false: the report is
// otherwise well formed, as a tampered harness would write it. Built a second
// time with GPULAB_LIE_ABOUT_DEVICE, it also names a device of its own.
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/npy_io.hpp"

namespace {
gpulab::NdArray tripled(const std::string& input) {
  const gpulab::NdArray in = gpulab::read_npy(input);
  std::vector<int32_t> out(in.as<int32_t>().begin(), in.as<int32_t>().end());
  for (int32_t& x : out) x *= 3;
  return gpulab::NdArray::from(out);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  nlohmann::json request;
  std::ifstream(argv[2]) >> request;
  // The timed case is the request's one case (the harness's request lists a part's cases).
  const nlohmann::json& one = request.at("cases").at(0);
  const std::string dir = one.at("output_dir");
  std::string input;
  for (const auto& p : one.at("params"))
    if (p.at("role") == "input") input = p.at("file");
  gpulab::write_npy(dir + "/output_out.npy", tripled(input));
  gpulab::write_npy(dir + "/recheck_out.npy", tripled(request.at("recheck").at("in")));
  const nlohmann::json result = {
      {"part", request.at("part")},
      {"status", "ok"},
      {"kernel_launches", 1},
      {"inputs_modified", nlohmann::json::array()},
      {"guard_overruns", nlohmann::json::array()},
#ifdef GPULAB_LIE_ABOUT_DEVICE
      {"device", {{"name", "a made-up GPU"}, {"uuid", "0123456789abcdef0123456789abcdef"}}},
#else
      {"device", {{"name", "gpulab CPU emulator (sm_90 limits)"}, {"uuid", std::string(32, '0')}}},
#endif
      {"timing",
       {{"median_s", 1e-9},
        {"min_s", 1e-9},
        {"max_s", 1e-9},
        {"spread", 0},
        {"runs", 10},
        {"calls", 13},
        {"l2_flush_bytes", 0},
        {"l2_persisting_reset", false},
        {"samples_s", std::vector<double>(10, 1e-9)}}},
      {"verification", {{"status", "checked"}, {"calls_checked", 13}}},
      {"copy_bandwidth_bytes_per_s", 1e10},
      {"recheck", {{"inputs_modified", nlohmann::json::array()}, {"guard_overruns", nlohmann::json::array()}}}};
  std::ofstream(one.at("result").get<std::string>()) << result.dump(1);
  return 0;
}
