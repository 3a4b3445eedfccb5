// The library algorithms that compute a lab's answer in one call (lab.json's "library_algorithms",
// docs/lab-format.md: CUB's device-wide reduction for the reduction lab, cuBLAS for matmul, ...),
// and the names the audit compares with them. A library's templates are instantiated in the
// submission's object, its kernels registered there, however the call is written (a typedef, a
// macro, a wrapper, CUB's dispatch class called directly), so every name a symbol mentions is
// compared: its own qualified name and those of its template arguments and parameters, at any
// depth, with the versioned inline namespaces of CUB, Thrust and libcu++ removed
// (`cub::CUB_300001_SM_900::DeviceReduce::Sum` -> `cub::DeviceReduce::Sum`).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpulab::audit {

struct LibraryAlgorithm {
  // Patterns over names (`*` any run of characters, `[A-Z]` a class), most telling first: the
  // finding names what the earliest pattern matched (`cub::DeviceReduce::*` before its kernels).
  std::vector<std::string> names;
  std::string is;  // what it is, for the student: "CUB's whole device-wide reduction"
};

struct LibraryRules {
  std::string task;  // "write the reduction kernel yourself"
  std::string
      allowed;  // "block- and warp-level CUB (cub::BlockReduce, cub::WarpReduce) inside your own kernel is fine"
  // In order: a name belongs to the first algorithm one of whose patterns matches it.
  std::vector<LibraryAlgorithm> algorithms;
};

// Which algorithm, and which of its patterns, matches a name first.
struct LibraryMatch {
  size_t algorithm = 0;
  size_t pattern = 0;
};

// A qualified name without the versioned inline namespaces of CUB (`CUB_300001_SM_900`), Thrust
// (`THRUST_300001_SM_900_NS`) and libcu++ (`__4`), and without a leading `::`.
std::string without_inline_namespaces(const std::string& qualified_name);
// Every qualified name a demangled symbol mentions, template arguments removed and inline
// namespaces too, in order and each once: `void cub::DispatchReduce<int*, ...>::Dispatch(...)`
// gives `void`, `cub::DispatchReduce::Dispatch`, `int`, ... An nvcc kernel stub's name
// (`__device_stub__ZN3cub...`) gives the names of the kernel it launches.
std::vector<std::string> mentioned_names(const std::string& demangled_name);
// Whether `pattern` matches the name, or its tail after a `::` (a library wrapped in a namespace
// of the program's own: CUB_WRAPPED_NAMESPACE, `namespace mine { #include <cub/cub.cuh> }`).
bool library_pattern_matches(const std::string& pattern, const std::string& name);
std::optional<LibraryMatch> match_library_algorithm(const LibraryRules& rules, const std::string& name);
// Whether a demangled symbol mentions a name one of the rules' algorithms matches.
bool mentions_library_algorithm(const LibraryRules& rules, const std::string& demangled_name);

}  // namespace gpulab::audit
