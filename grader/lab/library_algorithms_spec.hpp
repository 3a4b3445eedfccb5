// lab.json's "library_algorithms" (docs/lab-format.md): the library calls that compute the lab's
// answer in one call (CUB's device-wide reduction, cuBLAS's GEMM, ...), each with the words the
// student reads. The audit of a submission's object finds them (grader/audit/library_algorithms.hpp);
// a finding holds the submission's points for the instructor's review.
#pragma once
#include <string>
#include <vector>

namespace gpulab {

class JsonReader;

struct LibraryAlgorithmSpec {
  // Patterns over the names a symbol mentions (`cub::DeviceReduce::*`, `cublas*`), most telling
  // first: the finding names what the earliest pattern matched.
  std::vector<std::string> names;
  std::string is;  // what it is, completing "calls cub::DeviceReduce::Sum, <is>: ..."
};

struct LibraryAlgorithmsSpec {
  std::string task;     // "write the reduction kernel yourself": "this lab asks you to <task>"
  std::string allowed;  // what stays allowed, in words: "block- and warp-level CUB ... is fine"
  // In order: a name belongs to the first algorithm one of whose patterns matches it. Empty when
  // the lab names none.
  std::vector<LibraryAlgorithmSpec> algorithms;
};

// `r` is lab.json's "library_algorithms" object.
LibraryAlgorithmsSpec parse_library_algorithms(const JsonReader& r);

}  // namespace gpulab
