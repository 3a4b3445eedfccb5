// The harness: the `main` linked with a submission. It runs the dataset cases
// of one part that the request lists, one after another in this one process
// (one CUDA context, one emulator start), each as harness_case.hpp says, with
// its own result.json, outputs and, on the emulator, its own findings file.
// Before each case it marks "case_begin:<i>" on its output (the grader times
// each case on its own clock and stops a case that runs past its limit), and
// after it, "case_end:<i>". Before each later case the submission's own state
// (its statics, its device variables) is put back as it was before the first
// call (submission_state.hpp), and what a case's calls allocated and did not
// free is freed (leftover_allocations.hpp), so that every case sees what it
// would see alone. A case that leaves the device in an error state, or, where
// the state cannot be put back, after which it differs, ends the process
// there: the grader runs the remaining cases in a fresh one.
// With a trusted program (the reference or the checker) the grader also runs
// it as a probe: the device's identity and copy bandwidth, nothing called. It
// never sees expected outputs: the grader compares.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/harness_binding.hpp"
#include "harness/harness_case.hpp"
#include "harness/leftover_allocations.hpp"
#include "harness/process_hardening.hpp"
#include "harness/submission_state.hpp"
#include "harness/timed_runs.hpp"
#include "platform/large_buffers.hpp"

namespace {
using gpulab::harness::write_result;
using nlohmann::json;

void mark(const char* what, size_t index) {
  gpulab::harness::write_phase_marker((what + std::to_string(index)).c_str());
}

// The emulator writes its findings where GPULAB_EMU_REPORT says, at each finding: each case's go
// to its own file (other backends ignore the variable).
void report_findings_to(const json& one) {
  setenv("GPULAB_EMU_REPORT", one.value("findings", std::string()).c_str(), 1);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "--request") {
    std::fprintf(stderr, "usage: %s --request REQUEST.json (run by the gpulab grader)\n", argv[0]);
    return 2;
  }
  gpulab::harness::write_phase_marker("main");  // the grader's --timings: the process has started
  // A part's cases run one after another in this process, each reading inputs and writing outputs
  // of up to 256 MB: the buffers one case frees are the next one's.
  gpulab::platform::keep_large_buffers_for_reuse();
  json request;
  {
    std::ifstream in(argv[2]);
    request = json::parse(in);
  }
  const std::string part = request.at("part").get<std::string>();

  // The grader's probe of the device, run with a trusted program (the reference or the lab's
  // checker, never a submission): which device this is and its copy bandwidth, nothing called.
  if (request.value("probe", false)) {
    json result = {{"part", part}, {"status", "ok"}, {"device", gpulab::harness::device_identity()}};
    if (request.value("copy_bandwidth", false)) {
      result["copy_bandwidth_bytes_per_s"] =
          gpulab::harness::measure_copy_bandwidth(request.value("copy_bandwidth_bytes", size_t{1} << 30));
    }
    write_result(request.at("cases").at(0).at("result").get<std::string>(), result);
    return 0;
  }

  const json& cases = request.at("cases");
  // A first result for every case saying the harness started: a case left at that was never
  // reached, or ended by the program (exit(), a crash) before its final result.
  for (const json& one : cases)
    write_result(one.at("result").get<std::string>(), {{"part", part}, {"status", "started"}});

  // The runtime starts (the CUDA context, or the emulator), then no new executable memory for the
  // rest of the process (process_hardening.hpp; its first step ran before any code of the submission).
  cudaFree(nullptr);
  gpulab::harness::harden_after_runtime_start();

  const gpulab::harness::PartBinding* binding = nullptr;
  for (size_t i = 0; i < gpulab::harness::part_binding_count; ++i)
    if (part == gpulab::harness::part_bindings[i].part) binding = &gpulab::harness::part_bindings[i];
  for (const json& one : cases) {
    const std::string path = one.at("result").get<std::string>();
    if (!binding) {
      write_result(path, {{"part", part}, {"status", "harness_error"}, {"message", "no binding for part " + part}});
    } else if (!binding->defined()) {
      write_result(path, {{"part", part},
                          {"status", "missing_function"},
                          {"message", std::string("your file does not define `") + binding->signature +
                                          "`: check the function's name and parameter types against the assignment"}});
    }
  }
  if (!binding || !binding->defined()) return 0;

  // What the submission's own state is before its first call: put back before every later case,
  // or, where it cannot be, a case after which it differs ends the process (the next case then
  // starts afresh).
  const gpulab::harness::SubmissionState state;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (i > 0) state.restore();  // (a no-op where it cannot be put back: see below)
    mark("case_begin:", i);
    report_findings_to(cases[i]);
    gpulab::harness::watch_allocations();
    const gpulab::harness::CaseOutcome outcome = gpulab::harness::run_case(*binding, request, cases[i]);
    setenv("GPULAB_EMU_REPORT", "", 1);  // freeing what the case left is not the case's finding
    gpulab::harness::free_leftover_allocations();
    mark("case_end:", i);
    if (i + 1 == cases.size()) break;
    if (outcome.needs_fresh_process) {
      gpulab::harness::write_phase_marker("fresh_process:the device may be in an error state");
      break;
    }
    if (const std::string changed = state.cannot_restore(); !changed.empty()) {
      gpulab::harness::write_phase_marker(("fresh_process:" + changed).c_str());
      break;
    }
  }
  return 0;
}
