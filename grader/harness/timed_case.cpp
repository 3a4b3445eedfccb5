// Implementation of timed_case.hpp.
#include "harness/timed_case.hpp"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "data/npy_io.hpp"
#include "harness/checker_registry.hpp"
#include "harness/device_checks.hpp"
#include "harness/fresh_entropy.hpp"
#include "harness/timed_runs.hpp"

namespace gpulab::harness {
namespace {
using nlohmann::json;

std::string cuda_message(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }

// Device memory of the timed case, freed however it ends.
class Scratch {
 public:
  ~Scratch() {
    for (void* p : blocks_) cudaFree(p);
  }
  void* allocate(size_t bytes, const std::string& what, std::string& error) {
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes ? bytes : 1);
    if (e != cudaSuccess) {
      cudaGetLastError();
      error = "cudaMalloc of " + std::to_string(bytes) + " bytes for " + what + " failed: " + cuda_message(e);
      return nullptr;
    }
    blocks_.push_back(p);
    return p;
  }

 private:
  std::vector<void*> blocks_;
};

struct MixedInput {
  DeviceBuffer* buffer = nullptr;
  void* first = nullptr;     // the timed case's values
  void* second = nullptr;    // the recheck case's values
  void* absolute = nullptr;  // |this call's values|, for the float bound's scale
  size_t elements = 0;
  unsigned long long digest = 0;  // of this call's values, to see whether the call changed them
};

struct CheckedOutput {
  DeviceBuffer* buffer = nullptr;
  void* want = nullptr;   // the checker's result for this call's inputs
  void* scale = nullptr;  // the checker's result for |this call's inputs|
  size_t elements = 0;
};

std::string element_text(const void* device_array, size_t index, DType dtype) {
  unsigned char bytes[8] = {};
  const size_t size = dtype_size(dtype);
  if (cudaMemcpy(bytes, static_cast<const unsigned char*>(device_array) + index * size, size, cudaMemcpyDeviceToHost) !=
      cudaSuccess) {
    cudaGetLastError();
    return "?";
  }
  char text[64];
  switch (dtype) {
    case DType::float32: {
      float v;
      std::memcpy(&v, bytes, sizeof v);
      std::snprintf(text, sizeof text, "%.9g", v);
      break;
    }
    case DType::float64: {
      double v;
      std::memcpy(&v, bytes, sizeof v);
      std::snprintf(text, sizeof text, "%.17g", v);
      break;
    }
    case DType::int32: {
      int32_t v;
      std::memcpy(&v, bytes, sizeof v);
      std::snprintf(text, sizeof text, "%d", v);
      break;
    }
    case DType::uint32: {
      uint32_t v;
      std::memcpy(&v, bytes, sizeof v);
      std::snprintf(text, sizeof text, "%u", v);
      break;
    }
    case DType::int8: std::snprintf(text, sizeof text, "%d", static_cast<int>(static_cast<int8_t>(bytes[0]))); break;
    case DType::uint8: std::snprintf(text, sizeof text, "%u", static_cast<unsigned>(bytes[0])); break;
  }
  return text;
}

// A call to the checker: the submission's call with some buffers replaced.
// `replacement` holds one pointer per buffer, in the order of the call's pointer parameters.
Call redirected(const Call& call, const std::vector<void*>& replacement) {
  Call c = call;
  for (size_t i = 0, k = 0; i < c.pointers.size(); ++i) {
    if (!c.pointers[i]) continue;
    if (replacement[k]) c.pointers[i] = replacement[k];
    ++k;
  }
  return c;
}

std::string wait_for(const char* what) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  return e == cudaSuccess ? "" : std::string(what) + ": " + cuda_message(e);
}

harness::TimingOptions options_from(const json& t) {
  TimingOptions o;
  o.warmup = t.value("warmup", o.warmup);
  o.min_runs = t.value("min_runs", o.min_runs);
  o.max_runs = t.value("max_runs", o.max_runs);
  o.min_seconds = t.value("min_seconds", o.min_seconds);
  o.max_seconds = t.value("max_seconds", o.max_seconds);
  o.flush_l2 = t.value("flush_l2", o.flush_l2);
  o.phase_markers = t.value("phase_markers", o.phase_markers);
  return o;
}
}  // namespace

TimedCaseOutcome run_timed_case(const PartBinding& binding, const Call& call, std::vector<DeviceBuffer>& buffers,
                                const json& timing) {
  TimedCaseOutcome out;
  Scratch scratch;
  const json alternates = timing.value("alternates", json::object());
  const json check = timing.value("check", json::object());
  const bool exact = check.value("exact", true);
  const double tolerance = check.value("tolerance", 0.0);
  const uint64_t base_seed = std::stoull(timing.value("seed", std::string("0")));

  // The two input sets on the device, and the checker's buffers.
  std::vector<MixedInput> inputs;
  std::vector<CheckedOutput> outputs;
  std::vector<void*> want_call, scale_call;  // replacement pointers, by buffer
  for (DeviceBuffer& b : buffers) {
    const size_t elements = b.host.size();
    if (b.role == "input") {
      MixedInput in{&b, nullptr, nullptr, nullptr, elements};
      if (!alternates.contains(b.name)) {
        out.status = "harness_error";
        out.error = "the request names no second input set for '" + b.name + "'";
        return out;
      }
      const NdArray second = map_npy(alternates.at(b.name).get<std::string>());
      if (second.byte_size() != b.bytes) {
        out.status = "harness_error";
        out.error = "the second input set of '" + b.name + "' has " + std::to_string(second.byte_size()) +
                    " bytes, not " + std::to_string(b.bytes);
        return out;
      }
      in.first = scratch.allocate(b.bytes, "the timed inputs", out.error);
      in.second = scratch.allocate(b.bytes, "the second input set", out.error);
      if (!exact && b.host.dtype() == DType::float32) in.absolute = scratch.allocate(b.bytes, "|inputs|", out.error);
      if (!out.error.empty()) {
        out.status = "harness_error";
        return out;
      }
      cudaMemcpy(in.first, b.data, b.bytes, cudaMemcpyDeviceToDevice);
      cudaMemcpy(in.second, second.data(), b.bytes, cudaMemcpyHostToDevice);
      inputs.push_back(in);
      want_call.push_back(nullptr);
      scale_call.push_back(in.absolute);
    } else {
      CheckedOutput o{&b, nullptr, nullptr, elements};
      o.want = scratch.allocate(b.bytes, "the checker's outputs", out.error);
      if (!exact) o.scale = scratch.allocate(b.bytes, "the checker's error scale", out.error);
      if (!out.error.empty()) {
        out.status = "harness_error";
        return out;
      }
      outputs.push_back(o);
      want_call.push_back(o.want);
      scale_call.push_back(o.scale);
    }
  }
  if (const std::string e = wait_for("preparing the timed inputs"); !e.empty()) {
    out.status = "cuda_error";
    out.error = e;
    return out;
  }

  std::string checker_problem;
  const PartBinding* checker = checker_for(binding.part, checker_problem);
  if (checker && !exact) {
    for (const CheckedOutput& o : outputs) {
      if (o.buffer->host.dtype() != DType::float32) {
        checker = nullptr;
        checker_problem = "output '" + o.buffer->name + "' is not float32, which the float bound on the device needs";
      }
    }
  }
  const Call checker_call = redirected(call, want_call);
  const Call scale_checker_call = redirected(call, scale_call);

  int checked = 0;
  bool checker_failed = false;
  CallHooks hooks;
  hooks.prepare = [&](int index) {
    // Randomness drawn now, after the previous call returned: the next inputs cannot be known earlier.
    const uint64_t seed = mix_hash(base_seed ^ fresh_entropy() ^ static_cast<uint64_t>(index));
    for (MixedInput& in : inputs) {
      mix_inputs(in.buffer->data, in.first, in.second, in.elements, dtype_size(in.buffer->host.dtype()), seed);
      if (checker) in.digest = device_checksum(in.buffer->data, in.buffer->bytes);
    }
    for (const CheckedOutput& o : outputs) reset_output(*o.buffer);
  };
  hooks.verify = [&](int index) -> std::string {
    if (!checker) return "";
    // The checker computes from the inputs as they are now: they must be the ones the call got
    // (a call that overwrote them with values of its choosing could otherwise match).
    for (const MixedInput& in : inputs) {
      if (device_checksum(in.buffer->data, in.buffer->bytes) != in.digest) {
        return "timed call " + std::to_string(index + 1) + " modified its input '" + in.buffer->name +
               "': inputs are read-only";
      }
    }
    for (const CheckedOutput& o : outputs) cudaMemset(o.want, o.buffer->zero_initial ? 0 : 0xFF, o.buffer->bytes);
    checker->call(checker_call);
    if (std::string e = wait_for("the lab's checker failed"); !e.empty()) {
      checker_failed = true;
      return e + " on timed call " + std::to_string(index + 1);
    }
    if (!exact) {
      for (const MixedInput& in : inputs) {
        if (!in.absolute) continue;
        cudaMemcpy(in.absolute, in.buffer->data, in.buffer->bytes, cudaMemcpyDeviceToDevice);
        make_absolute(static_cast<float*>(in.absolute), in.elements);
      }
      for (const CheckedOutput& o : outputs) cudaMemset(o.scale, o.buffer->zero_initial ? 0 : 0xFF, o.buffer->bytes);
      checker->call(scale_checker_call);
      if (std::string e = wait_for("the lab's checker failed on |inputs|"); !e.empty()) {
        checker_failed = true;
        return e + " on timed call " + std::to_string(index + 1);
      }
    }
    for (const CheckedOutput& o : outputs) {
      const DeviceBuffer& b = *o.buffer;
      const DeviceComparison c = exact ? compare_exact(b.data, o.want, o.elements, dtype_size(b.host.dtype()))
                                       : compare_bounded(static_cast<const float*>(static_cast<const void*>(b.data)),
                                                         static_cast<const float*>(o.want),
                                                         static_cast<const float*>(o.scale), o.elements, tolerance);
      if (!c.ok) {
        checker_failed = true;
        return "the comparison of timed call " + std::to_string(index + 1) + " failed with a CUDA error";
      }
      if (c.bad == 0) continue;
      std::string m = "timed call " + std::to_string(index + 1) + " (each call gets new inputs): output '" + b.name +
                      "' differs from the checker's result in " + std::to_string(c.bad) + " of " +
                      std::to_string(o.elements) + " elements; the first is " + b.name + "[" +
                      std::to_string(c.first_bad) + "] = " + element_text(b.data, c.first_bad, b.host.dtype()) +
                      ", the checker's " + element_text(o.want, c.first_bad, b.host.dtype());
      if (!exact && std::isfinite(c.worst)) {
        char worst[96];
        std::snprintf(worst, sizeof worst, " (the worst difference is %.3g times the float bound)", c.worst);
        m += worst;
      }
      return m;
    }
    ++checked;
    return "";
  };

  const TimingResult t = time_runs([&] { binding.call(call); }, hooks, options_from(timing));
  out.timing = {{"median_s", t.median_s},
                {"min_s", t.min_s},
                {"max_s", t.max_s},
                {"spread", t.spread},
                {"runs", t.runs},
                {"calls", t.calls},
                {"l2_flush_bytes", t.l2_flush_bytes},
                {"l2_persisting_reset", t.l2_persisting_reset},
                {"samples_s", t.samples_s}};
  out.verification = checker ? json{{"status", "checked"}, {"calls_checked", checked}}
                             : json{{"status", checker_tampered() ? "tampered" : "unavailable"},
                                    {"calls_checked", 0},
                                    {"reason", checker_problem}};
  if (!t.ok) {
    out.error = t.error;
    out.status = checker_failed ? "harness_error" : t.failed_call >= 0 ? "timed_output_wrong" : "cuda_error";
  }
  // The inputs-unchanged check compares with the host copy: put the first set back.
  for (const MixedInput& in : inputs) cudaMemcpy(in.buffer->data, in.first, in.buffer->bytes, cudaMemcpyDeviceToDevice);
  return out;
}

}  // namespace gpulab::harness
