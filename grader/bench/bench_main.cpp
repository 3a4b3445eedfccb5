// The benchmark program `gpulab bench` builds with nvcc and runs on the GPU.
// It loads each implementation (a shared library holding one .cu file and the
// lab's binding), generates every case's inputs once, takes the checker's
// output (and its output on |inputs|, the error scale of float results), then
// for each implementation times the host function with harness::time_runs and
// checks the output of its last timed run on the device. It writes one JSON
// result; `gpulab bench` prints the table.
// Usage: bench_main --request REQUEST.json   (written by `gpulab bench`)
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "harness/device_checks.hpp"
#include "data/value_generators.hpp"
#include "harness/harness_binding.hpp"
#include "harness/timed_runs.hpp"

namespace {
using nlohmann::json;
using gpulab::harness::Call;
using gpulab::harness::PartBinding;

std::string cuda_message(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }

struct Library {
  std::string name;
  std::string error;  // why it could not be loaded
  const PartBinding* bindings = nullptr;
  size_t count = 0;
  const PartBinding* find(const std::string& part) const {
    for (size_t i = 0; i < count; ++i)
      if (part == bindings[i].part) return &bindings[i];
    return nullptr;
  }
};

Library load_library(const std::string& name, const std::string& path) {
  Library lib;
  lib.name = name;
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    lib.error = std::string("cannot load: ") + dlerror();
    return lib;
  }
  using Table = const PartBinding* (*)(size_t*);
  auto table = reinterpret_cast<Table>(dlsym(handle, "gpulab_bench_bindings"));
  if (!table) {
    lib.error = "no binding table in " + path;
    return lib;
  }
  lib.bindings = table(&lib.count);
  return lib;  // never closed: its kernels stay registered with the runtime until exit
}

struct Buffer {
  std::string name;
  std::string role;  // input | output
  gpulab::DType dtype = gpulab::DType::float32;
  size_t count = 0;
  size_t bytes = 0;
  bool zero_initial = false;
  void* data = nullptr;         // what implementations get
  void* want = nullptr;         // output: the checker's result
  void* scale = nullptr;        // float output: the checker's result on |inputs|
  std::vector<unsigned char> host;  // input: the generated values
  unsigned long long digest = 0;    // input: checksum after upload
};

// Inputs are generated in chunks on all cores (each chunk from its own derived
// seed), so 2^28 values take a fraction of a second.
void generate(Buffer& b, const json& dist, uint64_t seed, const std::string& key) {
  const size_t elem = gpulab::dtype_size(b.dtype);
  b.host.resize(b.bytes);
  const size_t chunk = size_t{1} << 22;
  const size_t chunks = (b.count + chunk - 1) / chunk;
  const unsigned workers = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 32));
  std::vector<std::thread> pool;
  std::vector<std::string> errors(workers);
  for (unsigned w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      try {
        for (size_t c = w; c < chunks; c += workers) {
          const size_t first = c * chunk, len = std::min(chunk, b.count - first);
          const gpulab::NdArray a = gpulab::generate_values(dist, b.dtype, {len},
                                                            gpulab::derive_seed(seed, key + "#" + std::to_string(c)));
          std::memcpy(b.host.data() + first * elem, a.data(), len * elem);
        }
      } catch (const std::exception& e) {
        errors[w] = e.what();
      }
    });
  }
  for (auto& t : pool) t.join();
  for (const auto& e : errors)
    if (!e.empty()) throw std::runtime_error("input '" + b.name + "': " + e);
}

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw Failure(what + ": " + cuda_message(e));
}

void reset_outputs(std::vector<Buffer>& buffers) {
  for (Buffer& b : buffers)
    if (b.role == "output") cudaMemsetAsync(b.data, b.zero_initial ? 0 : 0xFF, b.bytes);
}

// A CUDA error after a call; a sticky one (the context is lost) also ends the run.
std::string call_error(bool& fatal) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e == cudaSuccess) return "";
  fatal = cudaDeviceSynchronize() != cudaSuccess;
  return cuda_message(e);
}

json run_case(const json& cs, const std::vector<Library>& libs, const json& request, bool& fatal) {
  const std::string part = cs.at("part");
  const uint64_t seed = request.value("seed", 1ull);
  std::vector<Buffer> buffers;
  // Device memory of this case, freed however the case ends.
  struct Release {
    std::vector<Buffer>& b;
    ~Release() {
      for (Buffer& x : b) {
        if (x.data) cudaFree(x.data);
        if (x.want) cudaFree(x.want);
        if (x.scale) cudaFree(x.scale);
      }
    }
  } release{buffers};
  Call call;
  for (const json& p : cs.at("params")) {
    if (p.at("role") == "size") {
      call.pointers.push_back(nullptr);
      call.sizes.push_back(p.at("value").get<long long>());
      continue;
    }
    buffers.emplace_back();  // owned by `release` from here on
    Buffer& b = buffers.back();
    b.name = p.at("name");
    b.role = p.at("role");
    b.dtype = gpulab::parse_dtype(p.at("dtype"));
    b.count = p.at("count");
    b.bytes = b.count * gpulab::dtype_size(b.dtype);
    b.zero_initial = p.value("initial", "") == "zero";
    check(cudaMalloc(&b.data, std::max<size_t>(b.bytes, 1)), "cudaMalloc of " + b.name);
    if (b.role == "input") {
      generate(b, p.at("dist"), seed, part + "/" + cs.at("label").get<std::string>() + "/" + b.name);
      check(cudaMemcpy(b.data, b.host.data(), b.bytes, cudaMemcpyHostToDevice), "uploading " + b.name);
      b.digest = gpulab::harness::device_checksum(b.data, b.bytes);
    } else {
      check(cudaMalloc(&b.want, std::max<size_t>(b.bytes, 1)), "cudaMalloc of the expected " + b.name);
      if (!cs.at("exact").get<bool>()) check(cudaMalloc(&b.scale, std::max<size_t>(b.bytes, 1)), "cudaMalloc");
    }
    call.pointers.push_back(b.data);
    call.sizes.push_back(0);
  }

  json rows = json::array();
  const bool exact = cs.at("exact");
  const double tolerance = cs.value("tolerance", 0.0);
  // 1. The checker's output, and on float parts its output on |inputs|.
  const int checker = request.value("checker", -1);
  std::string checker_problem;
  const PartBinding* cb = checker >= 0 ? libs[checker].find(part) : nullptr;
  if (!cb || !cb->defined()) {
    checker_problem = "the checker (" + (checker >= 0 ? libs[checker].name : std::string("none")) +
                      ") does not implement part '" + part + "'";
  } else {
    reset_outputs(buffers);
    cb->call(call);
    const std::string err = call_error(fatal);
    if (!err.empty()) checker_problem = "the checker failed: " + err;
    for (Buffer& b : buffers)
      if (b.role == "output") cudaMemcpy(b.want, b.data, b.bytes, cudaMemcpyDeviceToDevice);
    if (checker_problem.empty() && !exact) {
      Call abs = call;
      std::vector<void*> temporaries;
      for (size_t i = 0, k = 0; i < call.pointers.size(); ++i) {
        if (!call.pointers[i]) continue;
        Buffer& b = buffers[k++];
        if (b.role == "input" && b.dtype == gpulab::DType::float32) {
          void* t = nullptr;
          check(cudaMalloc(&t, b.bytes), "cudaMalloc of |" + b.name + "|");
          cudaMemcpy(t, b.data, b.bytes, cudaMemcpyDeviceToDevice);
          gpulab::harness::make_absolute(static_cast<float*>(t), b.count);
          abs.pointers[i] = t;
          temporaries.push_back(t);
        } else if (b.role == "output") {
          abs.pointers[i] = b.scale;
          cudaMemsetAsync(b.scale, b.zero_initial ? 0 : 0xFF, b.bytes);
        }
      }
      cb->call(abs);
      const std::string e2 = call_error(fatal);
      if (!e2.empty()) checker_problem = "the checker failed on |inputs|: " + e2;
      for (void* t : temporaries) cudaFree(t);
    }
  }

  // 2. Every implementation: a trial call, the timed runs, the check.
  const json& impls = request.at("implementations");
  for (size_t i = 0; i < libs.size() && !fatal; ++i) {
    if (!impls.at(i).value("timed", true)) continue;  // only checks the others
    json row = {{"implementation", i}};
    const PartBinding* b = libs[i].find(part);
    if (!libs[i].error.empty()) {
      row["status"] = "error";
      row["message"] = libs[i].error;
    } else if (!b || !b->defined()) {
      row["status"] = "missing";
    } else {
      std::fprintf(stderr, "gpulab bench: %s, %s: %s\n", part.c_str(), cs.at("label").get<std::string>().c_str(),
                   libs[i].name.c_str());
      reset_outputs(buffers);
      const auto t0 = std::chrono::steady_clock::now();
      b->call(call);
      std::string err = call_error(fatal);
      const double trial = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      gpulab::harness::TimingOptions o;
      o.warmup = 2;
      o.min_runs = 10;
      o.min_seconds = 0.3;
      o.max_runs = 100;
      if (trial > 0.05) {  // a slow textbook kernel: fewer runs, still a median
        o.warmup = 1;
        o.min_runs = 3;
        o.min_seconds = 0;
      }
      gpulab::harness::TimingResult t;
      if (err.empty()) {
        t = gpulab::harness::time_runs([&] { b->call(call); }, [&] { reset_outputs(buffers); }, o);
        if (!t.ok) err = t.error, fatal = cudaDeviceSynchronize() != cudaSuccess;
      }
      if (!err.empty()) {
        row["status"] = "error";
        row["message"] = "CUDA reported " + err;
      } else {
        row["status"] = "ok";
        row["median_s"] = t.median_s;
        row["min_s"] = t.min_s;
        row["spread"] = t.spread;
        row["runs"] = t.runs;
        // The output of the last timed run against the checker's.
        const bool checks = impls.at(i).value("check", true);
        std::string verdict = "pass", message;
        double worst = 0;
        if (!checks) {
          verdict = "none";
        } else if (!checker_problem.empty()) {
          verdict = "none";
          message = checker_problem;
        } else {
          for (Buffer& ob : buffers) {
            if (ob.role != "output") continue;
            const gpulab::harness::DeviceComparison c =
                exact ? gpulab::harness::compare_exact(ob.data, ob.want, ob.count, gpulab::dtype_size(ob.dtype))
                      : gpulab::harness::compare_bounded(static_cast<float*>(ob.data), static_cast<float*>(ob.want),
                                                       static_cast<float*>(ob.scale), ob.count, tolerance);
            worst = std::max(worst, c.worst);
            if (!c.ok) {
              verdict = "fail";
              message = "the comparison failed with a CUDA error";
            } else if (c.bad) {
              verdict = "fail";
              message = "output '" + ob.name + "': " + std::to_string(c.bad) + " of " + std::to_string(ob.count) +
                        " elements differ from the checker's, the first at index " + std::to_string(c.first_bad);
              if (!exact) {
                char worst_text[64];
                std::snprintf(worst_text, sizeof worst_text, "; the worst is %.3g times the float bound", c.worst);
                message += worst_text;
              }
            }
          }
        }
        for (Buffer& ib : buffers) {
          if (ib.role != "input" || gpulab::harness::device_checksum(ib.data, ib.bytes) == ib.digest) continue;
          verdict = "fail";
          message = "it modified its input '" + ib.name + "' (restored for the next implementation)";
          cudaMemcpy(ib.data, ib.host.data(), ib.bytes, cudaMemcpyHostToDevice);
        }
        row["check"] = verdict;
        if (!message.empty()) row["check_message"] = message;
        if (!exact) row["worst_error_ratio"] = worst;
      }
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "--request") {
    std::fprintf(stderr, "usage: %s --request REQUEST.json (run by gpulab bench)\n", argv[0]);
    return 2;
  }
  json request;
  {
    std::ifstream in(argv[2]);
    request = json::parse(in);
  }
  const std::string result_path = request.at("result");
  json result;
  auto write = [&] { std::ofstream(result_path) << result.dump(1) << "\n"; };
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    result["error"] = "no CUDA device is usable here (" +
                      (e != cudaSuccess ? cuda_message(e) : std::string("cudaGetDeviceCount found none")) +
                      "); gpulab bench needs an NVIDIA GPU";
    write();
    return 3;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  result["device"] = prop.name;
  result["sms"] = prop.multiProcessorCount;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  result["driver_version"] = driver;
  result["runtime_version"] = runtime;
  result["copy_bandwidth"] = gpulab::harness::measure_copy_bandwidth();

  std::vector<Library> libs;
  for (const json& impl : request.at("implementations")) libs.push_back(load_library(impl.at("name"), impl.at("library")));
  result["cases"] = json::array();
  bool fatal = false;
  for (const json& cs : request.at("cases")) {
    json entry = {{"rows", json::array()}};
    try {
      if (!fatal) entry["rows"] = run_case(cs, libs, request, fatal);
    } catch (const std::exception& ex) {
      entry["error"] = ex.what();
    }
    if (fatal) entry["error"] = "a CUDA error left the GPU context unusable; the remaining measurements were skipped";
    result["cases"].push_back(entry);
    write();  // what was measured survives a later crash
  }
  write();
  return 0;
}
