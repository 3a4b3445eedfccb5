// Helpers for the race-check tests: the findings of the checker since the
// last call, filtered by kind, and a device buffer that frees itself.
#pragma once
#include <string>
#include <vector>

#include "gpulab/emu/diagnostics_api.hpp"

namespace race_test {

using gpulab::emu::Diagnostic;

// Every diagnostic reported since the last call (clears the list).
inline std::vector<Diagnostic> take() { return gpulab::emu::take_diagnostics(); }

inline std::vector<Diagnostic> of_kind(const std::vector<Diagnostic>& all, const std::string& kind) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : all) {
    if (d.kind == kind) out.push_back(d);
  }
  return out;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Every message, one per line, for failure output.
inline std::string dump(const std::vector<Diagnostic>& all) {
  std::string out;
  for (const Diagnostic& d : all) out += "[" + d.kind + "] " + d.message + "\n";
  return out;
}

template <class T> struct DeviceBuffer {
  T* p = nullptr;
  explicit DeviceBuffer(size_t n, int fill_byte = 0) {
    cudaMalloc(&p, n * sizeof(T));
    cudaMemset(p, fill_byte, n * sizeof(T));
  }
  DeviceBuffer(const std::vector<T>& host) {
    cudaMalloc(&p, host.size() * sizeof(T));
    cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  std::vector<T> to_host(size_t n) const {
    std::vector<T> h(n);
    cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost);
    return h;
  }
};

}  // namespace race_test
