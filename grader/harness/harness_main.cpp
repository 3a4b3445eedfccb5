// The harness: the `main` linked with a submission. It runs one dataset case
// of one part: reads the inputs (.npy), puts them in device memory, poisons
// the outputs, calls the student's host function, and writes the outputs and
// a result.json (CUDA errors, kernel launches, modified inputs, guard-zone
// overruns). For the performance case it then times the function on inputs
// that change from call to call, each call's output checked against the lab's
// checker (timed_case.hpp), and calls the function once more on the recheck
// inputs, writing those outputs too. With a trusted program (the reference
// or the checker) the grader also runs it as a probe: the device's identity
// and copy bandwidth, measured where no submission can interfere. It never
// sees expected outputs: the grader compares.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/npy_io.hpp"
#include "harness/device_buffers.hpp"
#include "harness/harness_binding.hpp"
#include "harness/launch_counter.hpp"
#include "harness/process_hardening.hpp"
#include "harness/timed_case.hpp"
#include "harness/timed_runs.hpp"
#include "harness/transfer_hooks.hpp"
#include "harness/transfer_log.hpp"

namespace {
using gpulab::harness::DeviceBuffer;
using nlohmann::json;

std::string cuda_message(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }

void write_result(const std::string& path, const json& result) {
  std::ofstream(path) << result.dump(1, ' ', false, json::error_handler_t::replace) << "\n";
}

int fail(json& result, const std::string& path, const std::string& status, const std::string& message) {
  result["status"] = status;
  result["message"] = message;
  write_result(path, result);
  return 0;
}

// Calls the function once and waits for every stream; a CUDA error in words, or "".
std::string call_and_wait(const gpulab::harness::PartBinding& binding, const gpulab::harness::Call& call) {
  binding.call(call);
  const cudaError_t sync = cudaDeviceSynchronize();
  const cudaError_t last = cudaGetLastError();
  if (sync == cudaSuccess && last == cudaSuccess) return "";
  return cuda_message(sync != cudaSuccess ? sync : last);
}

void write_outputs(const std::vector<DeviceBuffer>& buffers, const std::string& dir, const std::string& prefix) {
  for (const DeviceBuffer& b : buffers)
    if (b.role == "output") gpulab::write_npy(dir + "/" + prefix + b.name + ".npy", b.host);
}

json device_identity() {
  json d = json::object();
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&prop, device) == cudaSuccess) {
    char uuid[33];
    for (int i = 0; i < 16; ++i) std::snprintf(uuid + 2 * i, 3, "%02x", static_cast<unsigned char>(prop.uuid.bytes[i]));
    int clock_khz = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device) != cudaSuccess) cudaGetLastError();
    d = {{"name", prop.name},
         {"uuid", uuid},
         {"l2_bytes", prop.l2CacheSize},
         {"multiprocessors", prop.multiProcessorCount},
         {"compute_capability", std::to_string(prop.major) + "." + std::to_string(prop.minor)},
         {"clock_khz", clock_khz}};
#ifdef GPULAB_EMULATOR
    d["emulated"] = true;  // a CPU: its clock and multiprocessors say nothing of arithmetic peaks
#endif
  }
  return d;
}

double copy_bandwidth(const json& request) {
  const size_t bytes = request.value("copy_bandwidth_bytes", size_t{1} << 30);
  return gpulab::harness::measure_copy_bandwidth(bytes);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "--request") {
    std::fprintf(stderr, "usage: %s --request REQUEST.json (run by the gpulab grader)\n", argv[0]);
    return 2;
  }
  gpulab::harness::write_phase_marker("main");  // the grader's --timings: the process has started
  json request;
  {
    std::ifstream in(argv[2]);
    request = json::parse(in);
  }
  const std::string result_path = request.at("result").get<std::string>();
  const std::string output_dir = request.at("output_dir").get<std::string>();
  const std::string part = request.at("part").get<std::string>();
  json result = {{"part", part}};
  // A first result saying the harness started: if the program then ends without the final one,
  // the grader knows the submission ended it (exit()); if even this is missing, the harness
  // never ran (a submission's own main() took its place).
  write_result(result_path, {{"part", part}, {"status", "started"}});

  // The grader's probe of the device, run with a trusted program (the reference or the lab's
  // checker, never a submission): which device this is and its copy bandwidth, nothing called.
  if (request.value("probe", false)) {
    result["device"] = device_identity();
    if (request.value("copy_bandwidth", false)) result["copy_bandwidth_bytes_per_s"] = copy_bandwidth(request);
    result["status"] = "ok";
    write_result(result_path, result);
    return 0;
  }

  // The runtime starts (the CUDA context, or the emulator), then no new executable memory for the
  // rest of the process (process_hardening.hpp; its first step ran before any code of the submission).
  cudaFree(nullptr);
  gpulab::harness::harden_after_runtime_start();

  const gpulab::harness::PartBinding* binding = nullptr;
  for (size_t i = 0; i < gpulab::harness::part_binding_count; ++i)
    if (part == gpulab::harness::part_bindings[i].part) binding = &gpulab::harness::part_bindings[i];
  if (!binding) return fail(result, result_path, "harness_error", "no binding for part " + part);
  if (!binding->defined()) {
    return fail(result, result_path, "missing_function",
                std::string("your file does not define `") + binding->signature +
                    "`: check the function's name and parameter types against the assignment");
  }

  std::vector<DeviceBuffer> buffers;
  gpulab::harness::Call call;
  for (const json& p : request.at("params")) {
    const std::string role = p.at("role");
    if (role == "size") {
      call.pointers.push_back(nullptr);
      call.sizes.push_back(p.at("value").get<long long>());
      continue;
    }
    DeviceBuffer b;
    b.name = p.at("name");
    b.role = role;
    if (role == "input") {
      b.host = gpulab::read_npy(p.at("file").get<std::string>());
    } else {
      b.host = gpulab::NdArray(gpulab::parse_dtype(p.at("dtype")), p.at("shape").get<std::vector<size_t>>());
      b.zero_initial = p.value("initial", "poison") == "zero";
    }
    const std::string error = gpulab::harness::allocate_buffer(b, !request.value("no_guard_zones", false));
    if (!error.empty()) return fail(result, result_path, "harness_error", error);
    call.pointers.push_back(b.data);
    call.sizes.push_back(0);
    buffers.push_back(std::move(b));
  }
  cudaDeviceSynchronize();

  // The checked call, the bytes that reach host memory during it counted (transfer_log.hpp).
  gpulab::harness::install_transfer_hooks();
  const long long launches_before = gpulab::harness::kernel_launches_so_far();
  gpulab::harness::write_phase_marker("call");
  const auto start = std::chrono::steady_clock::now();
  std::string error;
  {
    const gpulab::harness::TransferRecording recording;
    error = call_and_wait(*binding, call);
  }
  gpulab::harness::write_phase_marker("returned");
  result["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const long long launches_after = gpulab::harness::kernel_launches_so_far();
  result["kernel_launches"] = launches_before < 0 ? -1 : launches_after - launches_before;
  if (!error.empty()) {
    result["cuda_error"] = error;
    return fail(result, result_path, "cuda_error", "CUDA reported " + error + " after your host function returned");
  }
  gpulab::harness::inspect_after_call(buffers, result);
  result["transfers"] = gpulab::harness::transfer_report();
  write_outputs(buffers, output_dir, "output_");

  // The performance case: timed runs on inputs that change from call to call, each call checked.
  if (request.contains("timing")) {
    result["device"] = device_identity();
    const gpulab::harness::TimedCaseOutcome t =
        gpulab::harness::run_timed_case(*binding, call, buffers, request.at("timing"));
    result["timing"] = t.timing;
    result["verification"] = t.verification;
    if (!t.status.empty()) {
      if (t.status == "cuda_error") {
        result["cuda_error"] = t.error;
        return fail(result, result_path, "cuda_error",
                    "CUDA reported " + t.error + " while your host function was being timed (it ran correctly once)");
      }
      return fail(result, result_path, t.status, t.error);
    }
  }
  if (request.contains("recheck")) {
    const json& fresh = request.at("recheck");
    for (DeviceBuffer& b : buffers) {
      if (b.role == "output") {
        gpulab::harness::reset_output(b);
      } else if (fresh.contains(b.name)) {
        const std::string e = gpulab::harness::upload_input(b, gpulab::read_npy(fresh.at(b.name).get<std::string>()));
        if (!e.empty()) return fail(result, result_path, "harness_error", e);
      }
    }
    gpulab::harness::reset_persisting_l2();  // as before every timed call: nothing kept in L2 on purpose
    cudaDeviceSynchronize();
    {
      const gpulab::harness::TransferRecording recording;
      error = call_and_wait(*binding, call);
    }
    if (!error.empty()) {
      result["cuda_error"] = error;
      return fail(result, result_path, "cuda_error",
                  "CUDA reported " + error + " when your host function was called again on fresh inputs");
    }
    json recheck_result;
    gpulab::harness::inspect_after_call(buffers, recheck_result);
    recheck_result["transfers"] = gpulab::harness::transfer_report();
    result["recheck"] = recheck_result;
    write_outputs(buffers, output_dir, "recheck_");
  }
  gpulab::harness::free_buffers(buffers);
  result["status"] = "ok";
  write_result(result_path, result);
  return 0;
}
