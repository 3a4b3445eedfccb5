// Shared by the hostile submissions (tests/hostile/*.cu, graded against the
// reduction lab): a correct reduce_sum_float, so that the part under no
// attack must keep its points, a correct integer sum for attacks that also
// compute, a kernel that stores a value no dataset sums to, and host helpers
// to find the files the harness was started with. The test inlines this file
// into each submission (the emulator rewrites launches in the submitted file).
#pragma once
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

constexpr int HOSTILE_WRONG = 123456789;  // what an attack that gained nothing stores

template <class T>
__global__ void hostile_sum(const T* in, T* out, int n) {
  __shared__ T partial[256];
  T v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

__global__ void hostile_store(int* out, int value) { *out = value; }

inline int hostile_blocks(int n) { return n / 256 + 1 < 256 ? n / 256 + 1 : 256; }

void reduce_sum_float(const float* in, float* out, int n) { hostile_sum<<<hostile_blocks(n), 256>>>(in, out, n); }

inline void hostile_correct_int(const int* in, int* out, int n) { hostile_sum<<<hostile_blocks(n), 256>>>(in, out, n); }
inline void hostile_wrong_int(int* out) { hostile_store<<<1, 1>>>(out, HOSTILE_WRONG); }

inline std::string hostile_read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The harness runs as `program --request FILE`: FILE, from /proc/self/cmdline.
inline std::string hostile_request_path() {
  const std::string cmd = hostile_read("/proc/self/cmdline");
  const size_t flag = cmd.find(std::string("--request") + '\0');
  return flag == std::string::npos ? "" : std::string(cmd.c_str() + flag + 10);
}

// The string value of the first `"key"` at or after `from` in the request's text, and where it ends.
inline std::string hostile_value_after(const std::string& req, const char* key, size_t& from) {
  const size_t at = req.find(std::string("\"") + key + "\"", from);
  if (at == std::string::npos) {
    from = std::string::npos;
    return "";
  }
  const size_t open = req.find('"', req.find(':', at));
  const size_t close = req.find('"', open + 1);
  from = close + 1;
  return req.substr(open + 1, close - open - 1);
}

// The cases the harness was asked to run (one child runs a part's cases one after another), in
// order: each case's folder for its outputs and its input file (the first input of its params).
struct HostileCase {
  std::string output_dir, input;
};
inline std::vector<HostileCase> hostile_cases() {
  const std::string req = hostile_read(hostile_request_path());
  std::vector<HostileCase> out;
  for (size_t from = 0;;) {
    HostileCase c;
    c.output_dir = hostile_value_after(req, "output_dir", from);
    if (from == std::string::npos) break;
    c.input = hostile_value_after(req, "file", from);
    if (from == std::string::npos) break;
    out.push_back(c);
  }
  return out;
}

// The number of elements of a 4-byte .npy file: its size less its header (whose length is the
// little-endian 16-bit word at byte 8, after 10 bytes of magic, version and that word).
inline long hostile_npy_elements(const std::string& path) {
  const std::string bytes = hostile_read(path);
  if (bytes.size() < 10) return -1;
  const size_t header = 10 + static_cast<unsigned char>(bytes[8]) + 256u * static_cast<unsigned char>(bytes[9]);
  return bytes.size() < header ? -1 : static_cast<long>((bytes.size() - header) / 4);
}

// The input file of the case being run: the first of the request's inputs with n elements.
inline std::string hostile_input_path(int n) {
  const std::vector<HostileCase> cases = hostile_cases();
  for (const HostileCase& c : cases)
    if (hostile_npy_elements(c.input) == n) return c.input;
  return cases.empty() ? "" : cases.front().input;
}
// The first case's input file ("file": "/.../int-tiny-1/input_in.npy").
inline std::string hostile_input_path() {
  const std::vector<HostileCase> cases = hostile_cases();
  return cases.empty() ? "" : cases.front().input;
}

// The program's own path, and the folder two levels up (the build cache).
inline std::string hostile_self() { return hostile_read("/proc/self/cmdline").c_str(); }
inline std::string hostile_dirname(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  return slash == std::string::npos || slash == 0 ? "/" : p.substr(0, slash);
}
