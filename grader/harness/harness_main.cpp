// The harness: the `main` linked with a submission. It runs one dataset case
// of one part: reads the inputs (.npy), puts them in device memory, poisons
// the outputs, calls the student's host function, and writes the outputs and
// a result.json (CUDA errors, kernel launches, modified inputs, guard-zone
// overruns). It never sees expected outputs: the grader compares.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/npy_io.hpp"
#include "harness/harness_binding.hpp"

#ifdef GPULAB_EMULATOR
#include "gpulab/emu/kernel_launch.hpp"
#endif

namespace {
using nlohmann::json;
// On a GPU the harness brackets every buffer with guard zones it checks itself;
// the emulator has its own, which also name the faulting thread.
#ifdef GPULAB_EMULATOR
constexpr size_t kGuard = 0;
#else
constexpr size_t kGuard = 64 * 1024;
#endif
constexpr unsigned char kGuardByte = 0xA5;

struct Buffer {
  std::string name;
  std::string role;
  unsigned char* base = nullptr;  // allocation start (guard zone first)
  unsigned char* data = nullptr;  // what the submission gets
  size_t bytes = 0;
  gpulab::NdArray host;           // input values, or output shape/dtype
};

std::string cuda_message(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

int fail(json& result, const std::string& path, const std::string& status, const std::string& message) {
  result["status"] = status;
  result["message"] = message;
  std::ofstream(path) << result.dump(1) << "\n";
  return 0;
}

long long launches_so_far() {
#ifdef GPULAB_EMULATOR
  return static_cast<long long>(gpulab::emu::launch_count());
#else
  return -1;  // not counted on a GPU yet
#endif
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
  const std::string part = request.at("part").get<std::string>();
  json result = {{"part", part}};

  const gpulab::harness::PartBinding* binding = nullptr;
  for (size_t i = 0; i < gpulab::harness::part_binding_count; ++i)
    if (part == gpulab::harness::part_bindings[i].part) binding = &gpulab::harness::part_bindings[i];
  if (!binding) return fail(result, result_path, "harness_error", "no binding for part " + part);
  if (!binding->defined()) {
    return fail(result, result_path, "missing_function",
                std::string("your file does not define `") + binding->signature +
                    "`: check the function's name and parameter types against the assignment");
  }

  std::vector<Buffer> buffers;
  gpulab::harness::Call call;
  for (const json& p : request.at("params")) {
    const std::string role = p.at("role");
    if (role == "size") {
      call.pointers.push_back(nullptr);
      call.sizes.push_back(p.at("value").get<long long>());
      continue;
    }
    Buffer b;
    b.name = p.at("name");
    b.role = role;
    if (role == "input") {
      b.host = gpulab::read_npy(p.at("file").get<std::string>());
    } else {
      b.host = gpulab::NdArray(gpulab::parse_dtype(p.at("dtype")), p.at("shape").get<std::vector<size_t>>());
    }
    b.bytes = b.host.byte_size();
    const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&b.base), b.bytes + 2 * kGuard);
    if (e != cudaSuccess) return fail(result, result_path, "harness_error", "cudaMalloc: " + cuda_message(e));
    b.data = b.base + kGuard;
    if (kGuard) {
      std::vector<unsigned char> pattern(kGuard, kGuardByte);
      cudaMemcpy(b.base, pattern.data(), kGuard, cudaMemcpyHostToDevice);
      cudaMemcpy(b.data + b.bytes, pattern.data(), kGuard, cudaMemcpyHostToDevice);
    }
    if (role == "input") {
      cudaMemcpy(b.data, b.host.data(), b.bytes, cudaMemcpyHostToDevice);
    } else {
      // Poisoned: NaN for floats, all bits set for integers, so unwritten elements fail.
      cudaMemset(b.data, p.value("initial", "poison") == "zero" ? 0 : 0xFF, b.bytes);
    }
    call.pointers.push_back(b.data);
    call.sizes.push_back(0);
    buffers.push_back(std::move(b));
  }
  cudaDeviceSynchronize();

  const long long launches_before = launches_so_far();
  const auto start = std::chrono::steady_clock::now();
  binding->call(call);
  const cudaError_t sync = cudaDeviceSynchronize();
  const cudaError_t last = cudaGetLastError();
  result["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const long long launches_after = launches_so_far();
  result["kernel_launches"] = launches_before < 0 ? -1 : launches_after - launches_before;
  if (sync != cudaSuccess || last != cudaSuccess) {
    const cudaError_t e = sync != cudaSuccess ? sync : last;
    result["cuda_error"] = cuda_message(e);
    return fail(result, result_path, "cuda_error",
                "CUDA reported " + cuda_message(e) + " after your host function returned");
  }

  json modified = json::array(), overruns = json::array();
  for (Buffer& b : buffers) {
    std::vector<unsigned char> now(b.bytes);
    if (b.bytes) cudaMemcpy(now.data(), b.data, b.bytes, cudaMemcpyDeviceToHost);
    if (b.role == "input") {
      if (b.bytes && std::memcmp(now.data(), b.host.data(), b.bytes) != 0) modified.push_back(b.name);
    } else {
      if (b.bytes) std::memcpy(b.host.data(), now.data(), b.bytes);
      gpulab::write_npy(request.at("output_dir").get<std::string>() + "/output_" + b.name + ".npy", b.host);
    }
    if (kGuard) {
      std::vector<unsigned char> before(kGuard), after(kGuard);
      cudaMemcpy(before.data(), b.base, kGuard, cudaMemcpyDeviceToHost);
      cudaMemcpy(after.data(), b.data + b.bytes, kGuard, cudaMemcpyDeviceToHost);
      for (size_t i = 0; i < kGuard; ++i) {
        if (after[i] != kGuardByte) {
          overruns.push_back({{"buffer", b.name}, {"where", "after"}, {"offset", i}});
          break;
        }
      }
      for (size_t i = kGuard; i-- > 0;) {
        if (before[i] != kGuardByte) {
          overruns.push_back({{"buffer", b.name}, {"where", "before"}, {"offset", kGuard - i}});
          break;
        }
      }
    }
    cudaFree(b.base);
  }
  result["inputs_modified"] = modified;
  result["guard_overruns"] = overruns;
  result["status"] = "ok";
  std::ofstream(result_path) << result.dump(1) << "\n";
  return 0;
}
