// The "bench" object of assignments/<lab>/lab.json (see docs/lab-format.md):
// what `gpulab bench` times for a lab -- the library baseline, the course's
// progression of textbook kernels, and per part the benchmark cases (sizes and
// input distributions), the work to count (bytes or operations) and how the
// float outputs are checked -- and its resolution into concrete cases.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lab/json_reader.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::bench {

struct Implementation {
  std::string name;                    // as the table shows it
  std::string file;                    // relative to the project root (or as given on the command line)
  std::vector<std::string> libraries;  // linked by name, e.g. "cublas"
};

struct BenchCaseSpec {
  std::string label;                             // e.g. "uniform bytes"
  std::map<std::string, long long> sizes;        // every size parameter of the part
  std::map<std::string, nlohmann::json> inputs;  // input name -> distribution (as in "datasets")
};

struct BenchPartSpec {
  std::string part;
  std::string flops;        // expression over the sizes; empty: report GB/s instead of GFLOP/s
  std::string error_depth;  // float outputs: expression for the depth of the error bound
  std::vector<BenchCaseSpec> cases;
};

struct BenchSpec {
  Implementation baseline;
  bool baseline_computes_output = true;   // false: the baseline only moves the same bytes (memcpy)
  std::optional<Implementation> checker;  // whose output the others are checked against (default: the baseline)
  std::vector<Implementation> progression;
  std::vector<BenchPartSpec> parts;
};

// Throws LabSpecError naming lab.json and the field when the object is missing or wrong.
// `bench` is lab.json's "bench" object; `lab` is read up to its parts (this runs when the lab loads).
BenchSpec read_bench_spec(const LabSpec& lab, const JsonReader& bench);
BenchSpec parse_bench_spec(const LabSpec& lab, const nlohmann::json& lab_json);  // the whole lab.json
BenchSpec load_bench_spec(const LabSpec& lab);  // lab.bench, as loaded (and checked) with the lab

// One case to run: the part, a label, the sizes, and what the bench program needs.
struct ResolvedCase {
  std::string part;
  std::string label;
  std::map<std::string, long long> sizes;
  double bytes = 0;       // inputs read + outputs written
  double flops = 0;       // 0 when the part reports bandwidth
  bool exact = true;      // integer outputs: exact; float outputs: bounded
  double tolerance = 0;   // float: |got - want| <= tolerance * (the checker's result on |inputs|)
  nlohmann::json params;  // for the bench program: resolved shapes, dtypes, distributions, size values
};

// "n=1048576" or "m=4096,n=4096,k=4096": throws std::invalid_argument with an example.
std::map<std::string, long long> parse_size_override(const std::string& text);

// The cases of the chosen parts (all when `parts` is empty). Each size override
// replaces the sizes it names in every case of every part that has all those
// sizes; a size override that fits no chosen part is an error.
std::vector<ResolvedCase> resolve_cases(const LabSpec& lab, const BenchSpec& spec,
                                        const std::vector<std::string>& parts,
                                        const std::vector<std::map<std::string, long long>>& size_overrides);

}  // namespace gpulab::bench
