// Implementation of harness_case.hpp.
#include "harness/harness_case.hpp"

#include <cuda_runtime.h>

#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "data/npy_io.hpp"
#include "harness/device_buffers.hpp"
#include "harness/launch_counter.hpp"
#include "harness/timed_case.hpp"
#include "harness/timed_runs.hpp"
#include "harness/transfer_hooks.hpp"
#include "harness/transfer_log.hpp"

namespace gpulab::harness {
namespace {
using nlohmann::json;

std::string cuda_message(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }

// Writes the final result with `status` and `message`; a case that ends this way is over.
CaseOutcome fail(json& result, const std::string& path, const std::string& status, const std::string& message,
                 bool fresh_process) {
  result["status"] = status;
  result["message"] = message;
  write_result(path, result);
  return {fresh_process};
}

// Calls the function once and waits for every stream; a CUDA error in words, or "".
std::string call_and_wait(const PartBinding& binding, const Call& call) {
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

// The buffers freed whichever way the case ends.
struct Buffers {
  std::vector<DeviceBuffer> list;
  ~Buffers() { free_buffers(list); }
};
}  // namespace

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

void write_result(const std::string& path, const json& result) {
  std::ofstream(path) << result.dump(1, ' ', false, json::error_handler_t::replace) << "\n";
}

CaseOutcome run_case(const PartBinding& binding, const json& request, const json& one) {
  const std::string result_path = one.at("result").get<std::string>();
  const std::string output_dir = one.at("output_dir").get<std::string>();
  json result = {{"part", request.at("part")}};
  // A first result saying the harness started this case: if the program then ends without the
  // final one, the grader knows the submission ended it (exit(), a crash).
  write_result(result_path, {{"part", request.at("part")}, {"status", "started"}});

  Buffers buffers;
  Call call;
  for (const json& p : one.at("params")) {
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
      // Mapped, not copied (copy-on-write): the grader's dataset files do not change while it runs.
      b.host = gpulab::map_npy(p.at("file").get<std::string>());
    } else {
      // Overwritten whole by each call's read-back (inspect_after_call).
      b.host =
          gpulab::NdArray::uninitialized(gpulab::parse_dtype(p.at("dtype")), p.at("shape").get<std::vector<size_t>>());
      b.zero_initial = p.value("initial", "poison") == "zero";
    }
    const std::string error = allocate_buffer(b, !request.value("no_guard_zones", false));
    if (!error.empty()) return fail(result, result_path, "harness_error", error, true);
    call.pointers.push_back(b.data);
    call.sizes.push_back(0);
    buffers.list.push_back(std::move(b));
  }
  cudaDeviceSynchronize();

  // The checked call, the bytes that reach host memory during it counted (transfer_log.hpp).
  install_transfer_hooks();
  const long long launches_before = kernel_launches_so_far();
  write_phase_marker("call");
  const auto start = std::chrono::steady_clock::now();
  std::string error;
  {
    const TransferRecording recording;
    error = call_and_wait(binding, call);
  }
  write_phase_marker("returned");
  result["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const long long launches_after = kernel_launches_so_far();
  result["kernel_launches"] = launches_before < 0 ? -1 : launches_after - launches_before;
  if (!error.empty()) {
    result["cuda_error"] = error;
    return fail(result, result_path, "cuda_error", "CUDA reported " + error + " after your host function returned",
                true);
  }
  inspect_after_call(buffers.list, result);
  result["transfers"] = transfer_report();
  write_outputs(buffers.list, output_dir, "output_");

  // The performance case: timed runs on inputs that change from call to call, each call checked.
  if (request.contains("timing")) {
    result["device"] = device_identity();
    const TimedCaseOutcome t = run_timed_case(binding, call, buffers.list, request.at("timing"));
    result["timing"] = t.timing;
    result["verification"] = t.verification;
    if (!t.status.empty()) {
      if (t.status == "cuda_error") {
        result["cuda_error"] = t.error;
        return fail(result, result_path, "cuda_error",
                    "CUDA reported " + t.error + " while your host function was being timed (it ran correctly once)",
                    true);
      }
      return fail(result, result_path, t.status, t.error, true);
    }
  }
  if (request.contains("recheck")) {
    const json& fresh = request.at("recheck");
    for (DeviceBuffer& b : buffers.list) {
      if (b.role == "output") {
        reset_output(b);
      } else if (fresh.contains(b.name)) {
        const std::string e = upload_input(b, gpulab::map_npy(fresh.at(b.name).get<std::string>()));
        if (!e.empty()) return fail(result, result_path, "harness_error", e, true);
      }
    }
    reset_persisting_l2();  // as before every timed call: nothing kept in L2 on purpose
    cudaDeviceSynchronize();
    {
      const TransferRecording recording;
      error = call_and_wait(binding, call);
    }
    if (!error.empty()) {
      result["cuda_error"] = error;
      return fail(result, result_path, "cuda_error",
                  "CUDA reported " + error + " when your host function was called again on fresh inputs", true);
    }
    json recheck_result;
    inspect_after_call(buffers.list, recheck_result);
    recheck_result["transfers"] = transfer_report();
    result["recheck"] = recheck_result;
    write_outputs(buffers.list, output_dir, "recheck_");
  }
  result["status"] = "ok";
  write_result(result_path, result);
  return {};
}

}  // namespace gpulab::harness
