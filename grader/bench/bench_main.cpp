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
using gpulab::harness::Call;
using gpulab::harness::PartBinding;
using nlohmann::json;

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
  void* data = nullptr;             // what implementations get
  void* want = nullptr;             // output: the checker's result
  void* scale = nullptr;            // float output: the checker's result on |inputs|
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
          const gpulab::NdArray a =
              gpulab::generate_values(dist, b.dtype, {len}, gpulab::derive_seed(seed, key + "#" + std::to_string(c)));
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

// A case's device buffers and the call that passes them; the device memory is freed however
// the case ends.
struct CaseBuffers {
  std::vector<Buffer> buffers;  // the pointer params', in the order of the params
  Call call;
  CaseBuffers() = default;
  CaseBuffers(const CaseBuffers&) = delete;
  CaseBuffers& operator=(const CaseBuffers&) = delete;
  ~CaseBuffers() {
    for (Buffer& x : buffers) {
      if (x.data) cudaFree(x.data);
      if (x.want) cudaFree(x.want);
      if (x.scale) cudaFree(x.scale);
    }
  }
};

// A pointer param's buffer: an input generated and uploaded, an output with room for the
// checker's result (and, for float results, its result on |inputs|).
void add_buffer(CaseBuffers& cb, const json& p, const json& cs, const std::string& part, uint64_t seed) {
  cb.buffers.emplace_back();  // freed by `cb` from here on
  Buffer& b = cb.buffers.back();
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
  cb.call.pointers.push_back(b.data);
  cb.call.sizes.push_back(0);
}

void allocate_case(CaseBuffers& cb, const json& cs, const std::string& part, uint64_t seed) {
  for (const json& p : cs.at("params")) {
    if (p.at("role") != "size") {
      add_buffer(cb, p, cs, part, seed);
      continue;
    }
    cb.call.pointers.push_back(nullptr);
    cb.call.sizes.push_back(p.at("value").get<long long>());
  }
}

// The argument for buffer `b` in the checker's call on |inputs|: a float input's magnitudes (in a
// temporary), an output's scale buffer, any other input as it is.
void* magnitude_argument(Buffer& b, void* as_is, std::vector<void*>& temporaries) {
  if (b.role == "input" && b.dtype == gpulab::DType::float32) {
    void* t = nullptr;
    check(cudaMalloc(&t, b.bytes), "cudaMalloc of |" + b.name + "|");
    cudaMemcpy(t, b.data, b.bytes, cudaMemcpyDeviceToDevice);
    gpulab::harness::make_absolute(static_cast<float*>(t), b.count);
    temporaries.push_back(t);
    return t;
  }
  if (b.role != "output") return as_is;
  cudaMemsetAsync(b.scale, b.zero_initial ? 0 : 0xFF, b.bytes);
  return b.scale;
}

// The checker's output on |inputs| into each output's scale (the error scale of float results).
std::string run_checker_on_magnitudes(const PartBinding& checker, CaseBuffers& cb, bool& fatal) {
  Call abs = cb.call;
  std::vector<void*> temporaries;
  for (size_t i = 0, k = 0; i < cb.call.pointers.size(); ++i) {
    if (cb.call.pointers[i]) abs.pointers[i] = magnitude_argument(cb.buffers[k++], cb.call.pointers[i], temporaries);
  }
  checker.call(abs);
  const std::string err = call_error(fatal);
  for (void* t : temporaries) cudaFree(t);
  return err.empty() ? "" : "the checker failed on |inputs|: " + err;
}

// Step 1: the checker's output into each output's `want` and, on float parts, its output on
// |inputs|; why the outputs cannot be checked, or "".
std::string run_checker(const PartBinding* checker, const std::string& checker_name, const std::string& part,
                        CaseBuffers& cb, bool exact, bool& fatal) {
  if (!checker || !checker->defined()) {
    return "the checker (" + checker_name + ") does not implement part '" + part + "'";
  }
  reset_outputs(cb.buffers);
  checker->call(cb.call);
  const std::string err = call_error(fatal);
  for (Buffer& b : cb.buffers)
    if (b.role == "output") cudaMemcpy(b.want, b.data, b.bytes, cudaMemcpyDeviceToDevice);
  if (!err.empty()) return "the checker failed: " + err;
  return exact ? "" : run_checker_on_magnitudes(*checker, cb, fatal);
}

// How the checks of a case are made.
struct CaseCheck {
  bool exact = true;
  double tolerance = 0;
  std::string checker_problem;  // why the outputs cannot be checked, if they cannot
};

// The check of one implementation's output: "pass", "fail" or "none", why, and the worst error.
struct Verdict {
  std::string verdict = "pass";
  std::string message;
  double worst = 0;
};

std::string bad_output_message(const Buffer& ob, const gpulab::harness::DeviceComparison& c, bool exact) {
  std::string message = "output '" + ob.name + "': " + std::to_string(c.bad) + " of " + std::to_string(ob.count) +
                        " elements differ from the checker's, the first at index " + std::to_string(c.first_bad);
  if (exact) return message;
  char worst_text[64];
  std::snprintf(worst_text, sizeof worst_text, "; the worst is %.3g times the float bound", c.worst);
  return message + worst_text;
}

Verdict compare_outputs(std::vector<Buffer>& buffers, const CaseCheck& ck) {
  Verdict v;
  for (Buffer& ob : buffers) {
    if (ob.role != "output") continue;
    const gpulab::harness::DeviceComparison c =
        ck.exact ? gpulab::harness::compare_exact(ob.data, ob.want, ob.count, gpulab::dtype_size(ob.dtype))
                 : gpulab::harness::compare_bounded(static_cast<float*>(ob.data), static_cast<float*>(ob.want),
                                                    static_cast<float*>(ob.scale), ob.count, ck.tolerance);
    v.worst = std::max(v.worst, c.worst);
    if (!c.ok) {
      v.verdict = "fail";
      v.message = "the comparison failed with a CUDA error";
    } else if (c.bad) {
      v.verdict = "fail";
      v.message = bad_output_message(ob, c, ck.exact);
    }
  }
  return v;
}

// An implementation that changed an input fails; the input is restored for the next one.
void check_inputs_unchanged(std::vector<Buffer>& buffers, Verdict& v) {
  for (Buffer& ib : buffers) {
    if (ib.role != "input" || gpulab::harness::device_checksum(ib.data, ib.bytes) == ib.digest) continue;
    v.verdict = "fail";
    v.message = "it modified its input '" + ib.name + "' (restored for the next implementation)";
    cudaMemcpy(ib.data, ib.host.data(), ib.bytes, cudaMemcpyHostToDevice);
  }
}

// The output of the last timed run against the checker's, and the inputs against their upload.
Verdict check_output(bool checks, CaseBuffers& cb, const CaseCheck& ck) {
  Verdict v;
  if (!checks) {
    v.verdict = "none";
  } else if (!ck.checker_problem.empty()) {
    v.verdict = "none";
    v.message = ck.checker_problem;
  } else {
    v = compare_outputs(cb.buffers, ck);
  }
  check_inputs_unchanged(cb.buffers, v);
  return v;
}

gpulab::harness::TimingOptions timing_options(double trial_seconds) {
  gpulab::harness::TimingOptions o;
  o.warmup = 2;
  o.min_runs = 10;
  o.min_seconds = 0.3;
  o.max_runs = 100;
  if (trial_seconds > 0.05) {  // a slow textbook kernel: fewer runs, still a median
    o.warmup = 1;
    o.min_runs = 3;
    o.min_seconds = 0;
  }
  return o;
}

// A trial call, then the timed runs; `err` is what CUDA reported, if anything.
gpulab::harness::TimingResult time_implementation(const PartBinding& b, CaseBuffers& cb, std::string& err,
                                                  bool& fatal) {
  reset_outputs(cb.buffers);
  const auto t0 = std::chrono::steady_clock::now();
  b.call(cb.call);
  err = call_error(fatal);
  const double trial = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  gpulab::harness::TimingResult t;
  if (!err.empty()) return t;
  t = gpulab::harness::time_runs([&] { b.call(cb.call); }, [&] { reset_outputs(cb.buffers); }, timing_options(trial));
  if (!t.ok) err = t.error, fatal = cudaDeviceSynchronize() != cudaSuccess;
  return t;
}

// Step 2, for one implementation: its row of the table (timing and check, or why none).
json implementation_row(size_t i, const Library& lib, const json& impl, const json& cs, CaseBuffers& cb,
                        const CaseCheck& ck, bool& fatal) {
  const std::string part = cs.at("part");
  json row = {{"implementation", i}};
  const PartBinding* b = lib.find(part);
  if (!lib.error.empty()) {
    row["status"] = "error";
    row["message"] = lib.error;
    return row;
  }
  if (!b || !b->defined()) {
    row["status"] = "missing";
    return row;
  }
  std::fprintf(stderr, "gpulab bench: %s, %s: %s\n", part.c_str(), cs.at("label").get<std::string>().c_str(),
               lib.name.c_str());
  std::string err;
  const gpulab::harness::TimingResult t = time_implementation(*b, cb, err, fatal);
  if (!err.empty()) {
    row["status"] = "error";
    row["message"] = "CUDA reported " + err;
    return row;
  }
  row["status"] = "ok";
  row["median_s"] = t.median_s;
  row["min_s"] = t.min_s;
  row["spread"] = t.spread;
  row["runs"] = t.runs;
  const Verdict v = check_output(impl.value("check", true), cb, ck);
  row["check"] = v.verdict;
  if (!v.message.empty()) row["check_message"] = v.message;
  if (!ck.exact) row["worst_error_ratio"] = v.worst;
  return row;
}

// One case: its inputs, the checker's output, then every timed implementation's row.
json run_case(const json& cs, const std::vector<Library>& libs, const json& request, bool& fatal) {
  const std::string part = cs.at("part");
  CaseBuffers cb;
  allocate_case(cb, cs, part, request.value("seed", 1ull));
  CaseCheck ck;
  ck.exact = cs.at("exact");
  ck.tolerance = cs.value("tolerance", 0.0);
  // 1. The checker's output, and on float parts its output on |inputs|.
  const int checker = request.value("checker", -1);
  ck.checker_problem = run_checker(checker >= 0 ? libs[checker].find(part) : nullptr,
                                   checker >= 0 ? libs[checker].name : std::string("none"), part, cb, ck.exact, fatal);
  // 2. Every implementation: a trial call, the timed runs, the check.
  json rows = json::array();
  const json& impls = request.at("implementations");
  for (size_t i = 0; i < libs.size() && !fatal; ++i) {
    if (!impls.at(i).value("timed", true)) continue;  // only checks the others
    rows.push_back(implementation_row(i, libs[i], impls.at(i), cs, cb, ck, fatal));
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
  for (const json& impl : request.at("implementations"))
    libs.push_back(load_library(impl.at("name"), impl.at("library")));
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
