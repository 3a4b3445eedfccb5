// The model of assignments/<lab>/lab.json (see docs/lab-format.md), loaded and
// validated in one place, all of it when the lab loads, through JsonReader
// (json_reader.hpp): every error is a LabSpecError naming the file, the JSON
// path (`parts[1].datasets[3].sizes[0].n`), what is wrong and what to write.
#pragma once
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/nd_array.hpp"
#include "lab/library_algorithms_spec.hpp"
#include "sandbox/resource_limits.hpp"

namespace gpulab {

struct LabSpecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The visibilities Gradescope accepts for a test (lab.json's hidden.visibility, --hidden-visibility).
const std::vector<std::string>& gradescope_visibilities();

enum class ParamRole { input, output, size };

struct ParamSpec {
  std::string name;
  ParamRole role = ParamRole::input;
  DType dtype = DType::float32;    // input/output
  std::vector<std::string> shape;  // size names or decimal numbers
  bool initially_zero = false;     // output: arrives zeroed instead of poisoned
  std::string ctype = "int";       // size: "int" or "size_t"

  // The shape with size names replaced by the case's values.
  std::vector<size_t> resolve_shape(const std::map<std::string, long long>& sizes) const;
};

struct CheckSpec {
  std::string kind = "exact";  // "exact" | "float_bound"
  double factor = 0;
};

struct FamilySpec {
  std::string family;
  bool is_public = true;  // small enough to commit under datasets/<lab>/
  std::vector<std::map<std::string, long long>> sizes;
  std::map<std::string, nlohmann::json> inputs;  // param name -> distribution
};

// A point of a piecewise-linear score: at `x` (a speed ratio or a fraction of
// bandwidth) the part earns `fraction` of its performance points.
struct ScorePoint {
  double x = 0;
  double fraction = 0;
};

// How a part's speed is scored on a GPU (see docs/lab-format.md, "performance").
struct PerformanceSpec {
  double points = 0;                       // a share of the part's points
  std::map<std::string, long long> sizes;  // the timed case
  std::map<std::string, nlohmann::json> inputs;
  std::string work = "bytes";                    // "bytes": inputs read + outputs written; "flops": product below
  std::vector<std::string> flops;                // factors: numbers or size names, e.g. 2 m n k
  std::vector<ScorePoint> thresholds;            // x = t_reference / t_submission
  std::vector<ScorePoint> bandwidth_thresholds;  // x = achieved / copy bandwidth, when no reference is shipped
  // Float outputs: the depth of the error bound over the sizes ("log2(n)", "k"), so that every
  // timed call's output can be checked against the lab's checker within the part's float bound.
  std::string error_depth;

  // Piecewise linear through the points, flat beyond the first and the last.
  static double fraction_at(const std::vector<ScorePoint>& points, double x);
  // The two dataset families of the timed case: "timed" and "recheck" (the same sizes, other values).
  std::vector<FamilySpec> families() const;
};

// What a legitimate solution may do on the host with a part's data (lab.json's "host_work",
// docs/lab-format.md): the result must be computed by device code, so only a small volume of bytes
// may reach host memory while the host function runs (by any route: copies, graph memcpy nodes,
// host-visible memory), and host-visible memory is not for graded functions unless the lab says so.
struct HostWorkPolicy {
  // The most bytes that may reach host memory during one call, as a share of the bytes of the
  // call's inputs (a host-side sum of per-block partials stays far below it); more counts as
  // computing on the host.
  double input_fraction_to_host = 0.5;
  // This many elements of the inputs (the widest element type) may always reach the host, whatever
  // their share (printing the first few while debugging).
  long long input_elements_to_host = 16;
  // Whether managed, page-locked (mapped) and registered host memory may be used: memory that a
  // kernel writes and the host reads with no copy. Where allowed, all of it that exists during a
  // call counts towards the bytes reaching the host, at its full size.
  bool host_visible_memory = false;
};

struct PartSpec {
  std::string name;
  double points = 0;
  std::string function;
  std::vector<ParamSpec> params;
  CheckSpec check;
  std::vector<FamilySpec> datasets;
  double time_limit_s = 0;         // the wall-clock limit of one run (= limits.wall_s)
  sandbox::ResourceLimits limits;  // the lab's "limits" with this part's own on top
  std::optional<PerformanceSpec> performance;
  HostWorkPolicy host_work;  // the lab's "host_work" with this part's own on top

  double correctness_points() const { return points - (performance ? performance->points : 0); }
  std::string signature() const;  // "void reduce_sum_int(const int* in, int* out, int n)"
  const ParamSpec* param(const std::string& name) const;
};

struct LabSpec {
  std::string lab;
  std::string title;
  std::string version;
  unsigned long long public_seed = 1;
  double time_limit_s = 30;
  sandbox::ResourceLimits limits;  // lab-wide "limits" (compile_s applies to the compile)
  std::string hidden_seed_env = "GPULAB_HIDDEN_SEED";
  std::string hidden_visibility = "after_due_date";
  std::vector<PartSpec> parts;
  // lab.json's "checker": {"file": ...}, relative to the project root: a plain CUDA file (a textbook
  // kernel of the course) implementing every part, against which every timed call's output is
  // checked (harness/checker_registry.hpp). Empty when the lab names none.
  std::string checker_file;
  // lab.json's "bench" object (null when absent), checked when the lab loads and read by
  // lab/bench_spec.hpp for `gpulab bench`.
  nlohmann::json bench;
  // lab.json's "library_algorithms": the library calls that compute the lab's answer, which the
  // audit of a submission's object finds (library_algorithms_spec.hpp). Empty when absent.
  LibraryAlgorithmsSpec library_algorithms;
  std::filesystem::path file;  // where it was loaded from

  const PartSpec& part(const std::string& name) const;  // throws LabSpecError listing the parts
  double total_points() const;
};

LabSpec parse_lab_spec(const nlohmann::json& j, const std::string& origin);
LabSpec load_lab_spec(const std::filesystem::path& lab_json);

}  // namespace gpulab
