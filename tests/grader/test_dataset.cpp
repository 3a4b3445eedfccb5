// Tests of dataset generation and verified reading (grader/data/dataset) on a
// made-up lab "unit_double" whose gold (registered here) doubles its input:
// manifests, sha256 verification, and the grader's lab-version check.
#include <catch2/catch.hpp>

#include <cmath>
#include <nlohmann/json.hpp>

#include "data/dataset.hpp"
#include "data/verified_stamp.hpp"
#include "gold/dataset_generation.hpp"
#include "gold/gold_registry.hpp"
#include "grade/grading.hpp"
#include "grader_test_support.hpp"

using gpulab::DatasetError;
using gpulab::Manifest;
using gpulab::NdArray;
using gpulab::Selection;
using gpulab_test::TempDir;
using nlohmann::json;

namespace {
void unit_double(const gpulab::gold::Case& c, gpulab::gold::Expected& out) {
  const auto in = c.input("in").as<int32_t>();
  std::vector<int32_t> v(in.begin(), in.end());
  for (int32_t& x : v) x *= 2;
  out.set("out", NdArray::from(v));
}

void unit_scale(const gpulab::gold::Case& c, gpulab::gold::Expected& out) {
  const auto in = c.input("x").as<float>();
  std::vector<float> v(in.begin(), in.end());
  std::vector<double> s(in.size());
  for (size_t i = 0; i < v.size(); ++i) {
    s[i] = std::fabs(v[i]);
    v[i] *= 3;
  }
  out.set("y", NdArray::from(v));
  out.set_scale("y", NdArray::from(s));
}
}  // namespace

GPULAB_GOLD("unit_double", "double", unit_double);
GPULAB_GOLD("unit_double", "triple", unit_scale);

namespace {
gpulab::LabSpec unit_lab(const std::string& version = "1") {
  json j = json::parse(R"({
    "lab": "unit_double", "version": "1", "public_seed": 5,
    "parts": [
      {"name": "double", "points": 10, "function": "double_it",
       "params": [{"name": "in", "role": "input", "dtype": "int32", "shape": ["n"]},
                  {"name": "out", "role": "output", "dtype": "int32", "shape": ["n"]},
                  {"name": "n", "role": "size"}],
       "check": {"kind": "exact"},
       "datasets": [
         {"family": "small", "sizes": [{"n": 1}, {"n": 33}],
          "inputs": {"in": {"dist": "uniform_int", "min": -9, "max": 9}}},
         {"family": "big", "public": false, "sizes": [{"n": 5000}],
          "inputs": {"in": {"dist": "uniform_int", "min": -9, "max": 9}}}]},
      {"name": "triple", "points": 5, "function": "triple_it",
       "params": [{"name": "x", "role": "input", "dtype": "float32", "shape": ["n"]},
                  {"name": "y", "role": "output", "dtype": "float32", "shape": ["n"]},
                  {"name": "n", "role": "size"}],
       "check": {"kind": "float_bound", "factor": 1},
       "datasets": [
         {"family": "mixed", "sizes": [{"n": 17}], "inputs": {"x": {"dist": "mixed_magnitude"}}}]}
    ]})");
  j["version"] = version;
  return gpulab::parse_lab_spec(j, "unit_double/lab.json");
}

std::string dataset_error(const std::filesystem::path& dir) {
  try {
    gpulab::read_manifest(dir, true);
  } catch (const DatasetError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("dataset: generated cases have a manifest that verifies", "[dataset]") {
  TempDir tmp;
  const gpulab::LabSpec lab = unit_lab();
  const Manifest m = gpulab::generate_datasets(lab, 5, false, Selection::public_small, tmp.path());
  REQUIRE(m.cases.size() == 3);  // two small cases of "double", one of "triple"; "big" is not public
  CHECK(m.cases[0].id == "double-small-1");
  CHECK(m.cases[1].id == "double-small-2");
  CHECK(m.cases[2].id == "triple-mixed-1");
  CHECK(m.cases[1].label() == "dataset 2 (n=33)");
  CHECK(m.cases[2].number == 1);
  REQUIRE(m.cases[1].files.size() == 2);
  REQUIRE(m.cases[2].files.size() == 3);  // input, expected, scale
  CHECK(m.cases[2].file("scale", "y") != nullptr);

  const Manifest back = gpulab::read_manifest(tmp.path(), true);
  CHECK(back.lab == "unit_double");
  CHECK(back.lab_version == "1");
  CHECK(back.seed == 5);
  CHECK_FALSE(back.hidden);
  REQUIRE(back.cases.size() == 3);
  const gpulab::CaseFile* in = back.cases[1].file("input", "in");
  const gpulab::CaseFile* out = back.cases[1].file("expected", "out");
  REQUIRE(in);
  REQUIRE(out);
  CHECK(in->file == "double-small-2/input_in.npy");
  CHECK(in->dtype == "int32");
  CHECK(in->shape == std::vector<size_t>{33});
  CHECK(in->sha256.size() == 64);
  const NdArray x = gpulab::load_case_file(back, *in);
  const NdArray y = gpulab::load_case_file(back, *out);
  REQUIRE(x.size() == 33);
  for (size_t i = 0; i < 33; ++i) CHECK(y.as<int32_t>()[i] == 2 * x.as<int32_t>()[i]);

  // Same seed, same files; the large selection holds only the non-public family.
  TempDir again;
  const Manifest m2 = gpulab::generate_datasets(lab, 5, false, Selection::public_small, again.path());
  CHECK(m2.cases[1].files[0].sha256 == m.cases[1].files[0].sha256);
  TempDir large;
  const Manifest ml = gpulab::generate_datasets(lab, 5, false, Selection::public_large, large.path());
  REQUIRE(ml.cases.size() == 1);
  CHECK(ml.cases[0].id == "double-big-1");
  CHECK(ml.cases[0].number == 3);  // numbered within its part, public or not
  CHECK_FALSE(ml.cases[0].is_public);
}

TEST_CASE("dataset: a corrupted, missing or mislabelled file is named", "[dataset]") {
  TempDir tmp;
  gpulab::generate_datasets(unit_lab(), 5, false, Selection::public_small, tmp.path());
  const auto file = tmp / "double-small-2/input_in.npy";
  REQUIRE(gpulab::read_manifest(tmp.path(), true).cases.size() == 3);

  SECTION("one byte changed") {
    std::string bytes = gpulab_test::read_file(file);
    bytes[bytes.size() - 3] ^= 0x01;
    gpulab_test::write_file(file, bytes);
    const std::string m = dataset_error(tmp.path());
    CHECK_THAT(m, Catch::StartsWith(file.string() + ": "));
    CHECK_THAT(m, Catch::Contains("sha256"));
    // Without verification the manifest itself is still readable.
    CHECK(gpulab::read_manifest(tmp.path(), false).cases.size() == 3);
  }
  SECTION("file deleted") {
    std::filesystem::remove(file);
    const std::string m = dataset_error(tmp.path());
    CHECK_THAT(m, Catch::StartsWith(file.string() + ": "));
    CHECK_THAT(m, Catch::Contains("missing"));
  }
  SECTION("manifest deleted") {
    std::filesystem::remove(tmp / "manifest.json");
    CHECK_THAT(dataset_error(tmp.path()),
               Catch::StartsWith((tmp / "manifest.json").string() + ": ") && Catch::Contains("missing"));
  }
  SECTION("manifest not JSON") {
    gpulab_test::write_file(tmp / "manifest.json", "{ nope");
    CHECK_THAT(dataset_error(tmp.path()),
               Catch::StartsWith((tmp / "manifest.json").string() + ": ") && Catch::Contains("not valid JSON"));
  }
  SECTION("manifest without a field") {
    json j = json::parse(gpulab_test::read_file(tmp / "manifest.json"));
    j["cases"][0]["files"][0].erase("sha256");
    gpulab_test::write_file(tmp / "manifest.json", j.dump());
    CHECK_THAT(dataset_error(tmp.path()),
               Catch::StartsWith((tmp / "manifest.json").string() + ": ") && Catch::Contains("malformed manifest"));
  }
  SECTION("a file whose shape differs from the manifest's") {
    const Manifest m = gpulab::read_manifest(tmp.path(), false);
    gpulab::CaseFile f = *m.cases[1].file("input", "in");
    f.shape = {34};
    try {
      gpulab::load_case_file(m, f);
      FAIL("a wrong shape was accepted");
    } catch (const DatasetError& e) {
      CHECK_THAT(e.what(), Catch::StartsWith(file.string() + ": holds int32(33,)"));
    }
  }
}

TEST_CASE("dataset: a folder is hashed once, then again after any change to one of its files", "[dataset]") {
  TempDir tmp;
  gpulab::generate_datasets(unit_lab(), 5, false, Selection::public_small, tmp.path());
  REQUIRE(gpulab::read_manifest_verified_once(tmp.path()).cases.size() == 3);
  REQUIRE(std::filesystem::exists(tmp / "verified.stamp"));
  // Unchanged: the stamp holds, read again.
  CHECK(gpulab::read_manifest_verified_once(tmp.path()).cases.size() == 3);

  // One byte changed, the size kept: the file's change time moves on, so it is hashed again and named.
  const auto file = tmp / "double-small-2/input_in.npy";
  std::string bytes = gpulab_test::read_file(file);
  bytes[bytes.size() - 3] ^= 0x01;
  gpulab_test::write_file(file, bytes);
  try {
    gpulab::read_manifest_verified_once(tmp.path());
    FAIL("a changed file was trusted");
  } catch (const DatasetError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith(file.string() + ": ") && Catch::Contains("sha256"));
  }
  // Restored: hashed again, and right again.
  bytes[bytes.size() - 3] ^= 0x01;
  gpulab_test::write_file(file, bytes);
  CHECK(gpulab::read_manifest_verified_once(tmp.path()).cases.size() == 3);
}

TEST_CASE("dataset: an unknown distribution is refused when the lab loads, a missing gold when generating",
          "[dataset]") {
  TempDir tmp;
  json j = json::parse(R"({
    "lab": "unit_double", "parts": [
      {"name": "double", "points": 1, "function": "f",
       "params": [{"name": "in", "role": "input", "dtype": "int32", "shape": ["n"]},
                  {"name": "out", "role": "output", "dtype": "int32", "shape": ["n"]},
                  {"name": "n", "role": "size"}],
       "check": {"kind": "exact"},
       "datasets": [{"family": "odd", "sizes": [{"n": 4}], "inputs": {"in": {"dist": "poisson"}}}]}]})");
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(j, "x"),
                    Catch::StartsWith("x: parts[0].datasets[0].inputs.in.dist (part 'double', family 'odd'): unknown "
                                      "value 'poisson'"));

  j["parts"][0]["datasets"][0]["inputs"]["in"] = {{"dist", "uniform_int"}, {"min", 0}, {"max", 3}};
  j["lab"] = "no_such_lab";
  const gpulab::LabSpec other = gpulab::parse_lab_spec(j, "x");
  CHECK_THROWS_WITH(gpulab::generate_datasets(other, 1, false, Selection::all, tmp.path()),
                    Catch::Contains("no gold implementation registered for lab 'no_such_lab', part 'double'"));
}

TEST_CASE("dataset: grading rejects public datasets made for another lab version", "[dataset][grading]") {
  TempDir home;
  const auto dir = home / "datasets/unit_double";
  gpulab::generate_datasets(unit_lab("1"), 5, false, Selection::public_small, dir);
  gpulab_test::ScopedEnv env_home("GPULAB_HOME", home.path().string());
  gpulab_test::ScopedEnv env_cache("GPULAB_CACHE", (home / "cache").string());
  gpulab::grade::GradeOptions o;
  o.include_large = false;
  o.include_hidden = false;
  // The check comes before the submission is compiled, so no submission is needed.
  try {
    gpulab::grade::grade_submission(unit_lab("2"), home / "submission.cu", o);
    FAIL("a version-1 manifest was accepted for a version-2 lab");
  } catch (const DatasetError& e) {
    const std::string m = e.what();
    CHECK_THAT(m, Catch::StartsWith((dir / "manifest.json").string() + ": "));
    CHECK_THAT(m, Catch::Contains("made for lab version 1, lab.json is version 2"));
    CHECK_THAT(m, Catch::Contains("gpulab datagen unit_double --public"));
  }
}
