// `gpulab bench`: builds the baseline, the reference, optionally the course's
// progression and any given files (each with the lab's binding, as a shared
// library) and the bench program, runs it on the GPU, and returns what it
// measured together with the cases and implementations, for bench_table.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lab/bench_spec.hpp"

namespace gpulab::bench {

struct BenchOptions {
  std::string lab;
  std::vector<std::string> files;  // extra implementations (e.g. a student's .cu)
  std::vector<std::map<std::string, long long>> sizes;
  std::vector<std::string> parts;
  bool variants = false;  // add the course's progression
  bool reference = true;  // include reference/<lab>/<lab>.cu
  std::string arch = "sm_90";
  bool use_cache = true;
  unsigned long long seed = 1;
  bool build_only = false;  // compile everything, measure nothing (no GPU needed)
};

struct BenchImplementation {
  Implementation impl;
  std::string role;  // baseline | reference | progression | file | checker
  bool shown = true;
};

struct BenchReport {
  std::string lab;
  std::vector<BenchImplementation> implementations;
  std::vector<ResolvedCase> cases;
  int baseline = 0;       // index into implementations
  nlohmann::json result;  // what the bench program wrote (device, copy_bandwidth, cases[].rows[])
};

// Throws std::runtime_error for anything that prevents measuring (no nvcc, no
// GPU, a file that does not compile: the compiler's messages are in the text).
BenchReport run_bench(const BenchOptions& options);

}  // namespace gpulab::bench
