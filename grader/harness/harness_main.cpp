// The harness: the `main` linked with a submission. It runs one dataset case
// of one part: reads the inputs (.npy), puts them in device memory, poisons
// the outputs, calls the student's host function, and writes the outputs and
// a result.json (CUDA errors, kernel launches, modified inputs, guard-zone
// overruns). For the performance case it then times the function
// (timed_runs.hpp) and calls it once more on fresh inputs in the same buffers,
// writing those outputs too, so a function that caches or skips work is
// caught. It never sees expected outputs: the grader compares.
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
#include "harness/timed_runs.hpp"

namespace {
using nlohmann::json;
using gpulab::harness::DeviceBuffer;

std::string cuda_message(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

void write_result(const std::string& path, const json& result) { std::ofstream(path) << result.dump(1) << "\n"; }

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
    d = {{"name", prop.name}, {"uuid", uuid}, {"l2_bytes", prop.l2CacheSize}};
  }
  return d;
}

gpulab::harness::TimingOptions timing_options(const json& t) {
  gpulab::harness::TimingOptions o;
  o.warmup = t.value("warmup", o.warmup);
  o.min_runs = t.value("min_runs", o.min_runs);
  o.max_runs = t.value("max_runs", o.max_runs);
  o.min_seconds = t.value("min_seconds", o.min_seconds);
  o.flush_l2 = t.value("flush_l2", o.flush_l2);
  return o;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "--request") {
    std::fprintf(stderr, "usage: %s --request REQUEST.json (run by the gpulab grader)\n", argv[0]);
    return 2;
  }
  json request;
  {
    std::ifstream in(argv[2]);
    request = json::parse(in);
  }
  const std::string result_path = request.at("result").get<std::string>();
  const std::string output_dir = request.at("output_dir").get<std::string>();
  const std::string part = request.at("part").get<std::string>();
  json result = {{"part", part}};

  // Only the device's identity and copy bandwidth; the submission is not called.
  if (request.value("probe_device", false)) {
    result["device"] = device_identity();
    result["copy_bandwidth_bytes_per_s"] = gpulab::harness::measure_copy_bandwidth();
    result["status"] = "ok";
    write_result(result_path, result);
    return 0;
  }

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

  // The checked call.
  const long long launches_before = gpulab::harness::kernel_launches_so_far();
  const auto start = std::chrono::steady_clock::now();
  std::string error = call_and_wait(*binding, call);
  result["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const long long launches_after = gpulab::harness::kernel_launches_so_far();
  result["kernel_launches"] = launches_before < 0 ? -1 : launches_after - launches_before;
  if (!error.empty()) {
    result["cuda_error"] = error;
    return fail(result, result_path, "cuda_error", "CUDA reported " + error + " after your host function returned");
  }
  gpulab::harness::inspect_after_call(buffers, result);
  write_outputs(buffers, output_dir, "output_");

  // The performance case: timed runs, then a call on fresh inputs in the same buffers.
  if (request.contains("timing")) {
    result["device"] = device_identity();
    const gpulab::harness::TimingResult t = gpulab::harness::time_runs(
        [&] { binding->call(call); },
        [&] {
          for (const DeviceBuffer& b : buffers)
            if (b.role == "output") gpulab::harness::reset_output(b);
        },
        timing_options(request.at("timing")));
    if (!t.ok) {
      result["cuda_error"] = t.error;
      return fail(result, result_path, "cuda_error",
                  "CUDA reported " + t.error + " while your host function was being timed (it ran correctly once)");
    }
    result["timing"] = {{"median_s", t.median_s}, {"min_s", t.min_s},     {"max_s", t.max_s},
                        {"spread", t.spread},     {"runs", t.runs},       {"l2_flush_bytes", t.l2_flush_bytes},
                        {"samples_s", t.samples_s}};
    if (request.value("copy_bandwidth", false)) result["copy_bandwidth_bytes_per_s"] = gpulab::harness::measure_copy_bandwidth();
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
    cudaDeviceSynchronize();
    error = call_and_wait(*binding, call);
    if (!error.empty()) {
      result["cuda_error"] = error;
      return fail(result, result_path, "cuda_error",
                  "CUDA reported " + error + " when your host function was called again on fresh inputs");
    }
    json recheck_result;
    gpulab::harness::inspect_after_call(buffers, recheck_result);
    write_outputs(buffers, output_dir, "recheck_");
  }
  gpulab::harness::free_buffers(buffers);
  result["status"] = "ok";
  write_result(result_path, result);
  return 0;
}
