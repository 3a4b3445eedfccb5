// The "unit_speed" lab's fixture (speed_lab_fixture.hpp) and its gold function.
#include "speed_lab_fixture.hpp"

#include "gold/dataset_generation.hpp"
#include "gold/gold_registry.hpp"

using nlohmann::json;

namespace {
void gold_triple(const gpulab::gold::Case& c, gpulab::gold::Expected& out) {
  const auto in = c.input("in").as<int32_t>();
  std::vector<int32_t> v(in.begin(), in.end());
  for (int32_t& x : v) x *= 3;
  out.set("out", gpulab::NdArray::from(v));
}
}  // namespace

GPULAB_GOLD("unit_speed", "triple", gold_triple);

namespace gpulab_test {

json speed_lab_json() {
  return json::parse(R"({"lab": "unit_speed", "version": "1", "public_seed": 5,
    "checker": {"file": "reference/unit_speed/checker.cu"}, "parts": [
    {"name": "triple", "points": 10, "function": "triple_it", "time_limit_s": 30,
     "params": [{"name": "in", "role": "input", "dtype": "int32", "shape": ["n"]},
                {"name": "out", "role": "output", "dtype": "int32", "shape": ["n"]},
                {"name": "n", "role": "size"}],
     "check": {"kind": "exact"},
     "performance": {"points": 4, "sizes": {"n": 5000}, "work": "bytes",
                     "inputs": {"in": {"dist": "uniform_int", "min": -9, "max": 9}},
                     "thresholds": [[0.0, 0.5], [1000.0, 1.0]],
                     "bandwidth_thresholds": [[0.0, 0.25], [1000.0, 1.0]]},
     "datasets": [{"family": "small", "sizes": [{"n": 1}, {"n": 777}],
                   "inputs": {"in": {"dist": "uniform_int", "min": -50, "max": 50}}}]}]})");
}
gpulab::LabSpec speed_lab() { return gpulab::parse_lab_spec(speed_lab_json(), "unit_speed/lab.json"); }

const char* const kKernel = R"(
__global__ void thrice(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3 * in[i];
}
)";
const std::string kReference =
    std::string(kKernel) +
    "void triple_it(const int* in, int* out, int n) { thrice<<<(n + 255) / 256, 256>>>(in, out, n); }\n";
// The checker: another correct implementation (one thread per element, grid-stride).
const char* const kChecker = R"(
__global__ void times_three(const int* in, int* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = in[i] * 3;
}
void triple_it(const int* in, int* out, int n) { times_three<<<8, 128>>>(in, out, n); }
)";

SpeedHome::SpeedHome(bool with_reference, bool with_checker) {
  std::filesystem::create_directory_symlink(std::string(GPULAB_TEST_SOURCE_DIR) + "/grader", home / "grader");
  const gpulab::LabSpec lab = speed_lab();
  gpulab::generate_datasets(lab, lab.public_seed, false, gpulab::Selection::public_small, home / "datasets/unit_speed");
  std::filesystem::create_directories(home / "reference/unit_speed");
  if (with_reference) gpulab_test::write_file(home / "reference/unit_speed/unit_speed.cu", kReference);
  if (with_checker) gpulab_test::write_file(home / "reference/unit_speed/checker.cu", kChecker);
}

gpulab::grade::GradeResult SpeedHome::grade(const std::string& source, gpulab::grade::PerformanceMode mode) {
  ScopedEnv env_home("GPULAB_HOME", home.path().string());
  ScopedEnv env_cache("GPULAB_CACHE", cache.path().string());
  const std::filesystem::path file = home / "student.cu";
  gpulab_test::write_file(file, source);
  gpulab::grade::GradeOptions o;
  o.performance = mode;
  o.race_check = false;
  return gpulab::grade::grade_submission(speed_lab(), file, o);
}

}  // namespace gpulab_test
