// Tests of lab.json parsing and validation (grader/lab/lab_spec): a valid
// spec gives the right model and C signature; each malformed spec gives a
// LabSpecError whose message names the file, the part and the field.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "grader_test_support.hpp"
#include "lab/lab_spec.hpp"

using gpulab::LabSpecError;
using nlohmann::json;

namespace {
const char* const kOrigin = "assignments/unit/lab.json";

// The reduction example of docs/lab-format.md, with a float part added.
json valid_spec() {
  return json::parse(R"({
    "lab": "unit", "title": "Unit lab", "version": "3", "public_seed": 9, "time_limit_s": 12,
    "hidden": {"seed_env": "UNIT_SECRET", "visibility": "after_published"},
    "parts": [
      {"name": "int", "points": 50, "function": "reduce_sum_int",
       "params": [
         {"name": "in",  "role": "input",  "dtype": "int32", "shape": ["n"]},
         {"name": "out", "role": "output", "dtype": "int32", "shape": [1], "initial": "zero"},
         {"name": "n",   "role": "size",   "ctype": "int"}],
       "check": {"kind": "exact"},
       "datasets": [
         {"family": "tiny", "sizes": [{"n": 1}, {"n": 2}, {"n": 31}, {"n": 33}],
          "inputs": {"in": {"dist": "uniform_int", "min": -100, "max": 100}}},
         {"family": "large", "public": false, "sizes": [{"n": 16777216}],
          "inputs": {"in": {"dist": "uniform_int", "min": -100, "max": 100}}}]},
      {"name": "float", "points": 25, "function": "reduce_sum_float", "time_limit_s": 5,
       "params": [
         {"name": "in",  "role": "input",  "dtype": "float32", "shape": ["rows", "cols"]},
         {"name": "out", "role": "output", "dtype": "float32", "shape": [1]},
         {"name": "rows", "role": "size", "ctype": "size_t"},
         {"name": "cols", "role": "size"}],
       "check": {"kind": "float_bound", "factor": 2.5},
       "datasets": [
         {"family": "small", "sizes": [{"rows": 3, "cols": 5}],
          "inputs": {"in": {"dist": "mixed_magnitude"}}}]}
    ]})");
}

// The LabSpecError message parsing `j` gives ("" when it parses).
std::string spec_error(const json& j) {
  try {
    gpulab::parse_lab_spec(j, kOrigin);
  } catch (const LabSpecError& e) {
    return e.what();
  }
  return "";
}

json& param(json& j, int part, int index) { return j["parts"][part]["params"][index]; }
}  // namespace

TEST_CASE("lab_spec: a valid spec parses into the model", "[lab_spec]") {
  const gpulab::LabSpec lab = gpulab::parse_lab_spec(valid_spec(), kOrigin);
  CHECK(lab.lab == "unit");
  CHECK(lab.title == "Unit lab");
  CHECK(lab.version == "3");
  CHECK(lab.public_seed == 9);
  CHECK(lab.time_limit_s == 12);
  CHECK(lab.hidden_seed_env == "UNIT_SECRET");
  CHECK(lab.hidden_visibility == "after_published");
  REQUIRE(lab.parts.size() == 2);
  CHECK(lab.total_points() == 75);

  const gpulab::PartSpec& p = lab.part("int");
  CHECK(p.signature() == "void reduce_sum_int(const int* in, int* out, int n)");
  CHECK(p.points == 50);
  CHECK(p.time_limit_s == 12);  // the lab's default
  CHECK(p.check.kind == "exact");
  REQUIRE(p.params.size() == 3);
  CHECK(p.params[0].role == gpulab::ParamRole::input);
  CHECK(p.params[0].shape == std::vector<std::string>{"n"});
  CHECK(p.params[1].shape == std::vector<std::string>{"1"});
  CHECK(p.params[1].initially_zero);
  CHECK(p.params[2].role == gpulab::ParamRole::size);
  REQUIRE(p.datasets.size() == 2);
  CHECK(p.datasets[0].is_public);
  CHECK_FALSE(p.datasets[1].is_public);
  CHECK(p.datasets[0].sizes.size() == 4);
  CHECK(p.datasets[0].sizes[2].at("n") == 31);
  CHECK(p.datasets[0].inputs.at("in").at("dist") == "uniform_int");
  CHECK(p.param("in")->resolve_shape({{"n", 1000}}) == std::vector<size_t>{1000});
  CHECK(p.param("nope") == nullptr);

  const gpulab::PartSpec& f = lab.part("float");
  CHECK(f.signature() == "void reduce_sum_float(const float* in, float* out, size_t rows, int cols)");
  CHECK(f.time_limit_s == 5);
  CHECK(f.check.kind == "float_bound");
  CHECK(f.check.factor == 2.5);
  CHECK_FALSE(f.params[1].initially_zero);
  CHECK(f.param("in")->resolve_shape({{"rows", 3}, {"cols", 5}}) == std::vector<size_t>{3, 5});
}

TEST_CASE("lab_spec: defaults when optional fields are left out", "[lab_spec]") {
  json j = valid_spec();
  j.erase("title");
  j.erase("version");
  j.erase("public_seed");
  j.erase("time_limit_s");
  j.erase("hidden");
  const gpulab::LabSpec lab = gpulab::parse_lab_spec(j, kOrigin);
  CHECK(lab.title == "unit");
  CHECK(lab.version == "1");
  CHECK(lab.public_seed == 1);
  CHECK(lab.time_limit_s == 30);
  CHECK(lab.hidden_seed_env == "GPULAB_HIDDEN_SEED");
  CHECK(lab.hidden_visibility == "after_due_date");
  CHECK(lab.part("int").time_limit_s == 30);
}

TEST_CASE("lab_spec: asking for an unknown part lists the parts", "[lab_spec]") {
  const gpulab::LabSpec lab = gpulab::parse_lab_spec(valid_spec(), kOrigin);
  CHECK_THROWS_WITH(lab.part("tiled"), "lab 'unit' has no part 'tiled' (its parts: int, float)");
}

TEST_CASE("lab_spec: each malformed spec names the file, the part and the field", "[lab_spec]") {
  json j = valid_spec();
  const std::string file = std::string(kOrigin) + ": ";
  const std::string part_int = std::string(kOrigin) + ", part 'int'";

  SECTION("unknown role") {
    param(j, 0, 1)["role"] = "inout";
    CHECK(spec_error(j) == part_int + ", param 'out': unknown role 'inout' (use input, output or size)");
  }
  SECTION("unknown dtype") {
    param(j, 0, 0)["dtype"] = "float16";
    const std::string m = spec_error(j);
    CHECK_THAT(m, Catch::StartsWith(part_int + ", param 'in': "));
    CHECK_THAT(m, Catch::Contains("unknown dtype 'float16'"));
  }
  SECTION("missing points") {
    j["parts"][1].erase("points");
    CHECK(spec_error(j) == std::string(kOrigin) + ", part 'float': missing field 'points'");
  }
  SECTION("points that are not a number") {
    j["parts"][0]["points"] = "fifty";
    CHECK(spec_error(j) == part_int + ": field 'points' must be a number");
  }
  SECTION("a shape naming a param that is not a size") {
    param(j, 0, 1)["shape"] = json::array({"in"});
    CHECK(spec_error(j) == part_int + ": param 'out' has shape entry 'in', which is not a size param");
  }
  SECTION("a shape naming no param at all") {
    param(j, 0, 0)["shape"] = json::array({"m"});
    CHECK(spec_error(j) == part_int + ": param 'in' has shape entry 'm', which is not a size param");
  }
  SECTION("duplicate part names") {
    j["parts"][1]["name"] = "int";
    CHECK(spec_error(j) == file + "two parts are named 'int'");
  }
  SECTION("duplicate param names") {
    param(j, 0, 1)["name"] = "in";
    CHECK(spec_error(j) == part_int + ": two params are named 'in'");
  }
  SECTION("a family whose sizes miss a size param") {
    j["parts"][1]["datasets"][0]["sizes"] = json::parse(R"([{"rows": 3, "cols": 5}, {"rows": 4}])");
    CHECK(spec_error(j) == std::string(kOrigin) +
                               ", part 'float', dataset family 'small': a sizes entry has no value for 'cols'");
  }
  SECTION("a negative size") {
    j["parts"][0]["datasets"][0]["sizes"][1]["n"] = -2;
    CHECK(spec_error(j) == part_int + ", dataset family 'tiny': size 'n' must be a non-negative integer");
  }
  SECTION("an input without a distribution") {
    j["parts"][0]["datasets"][1]["inputs"] = json::object();
    CHECK(spec_error(j) == part_int + ", dataset family 'large': no value distribution for input 'in'");
  }
  SECTION("an input distribution without 'dist'") {
    j["parts"][0]["datasets"][0]["inputs"]["in"] = json::parse(R"({"min": 0, "max": 1})");
    CHECK(spec_error(j) == part_int + ", dataset family 'tiny': input 'in' needs {\"dist\": ...}");
  }
  SECTION("check kind unknown") {
    j["parts"][0]["check"]["kind"] = "approximate";
    const std::string m = spec_error(j);
    CHECK_THAT(m, Catch::StartsWith(part_int + ": "));
    CHECK_THAT(m, Catch::Contains("check kind must be 'exact' or 'float_bound'"));
  }
  SECTION("float_bound without factor") {
    j["parts"][1]["check"].erase("factor");
    CHECK(spec_error(j) == std::string(kOrigin) + ", part 'float', check: missing field 'factor'");
  }
  SECTION("no parts") {
    j["parts"] = json::array();
    CHECK(spec_error(j) == file + "parts must be a non-empty list");
  }
  SECTION("missing lab name") {
    j.erase("lab");
    CHECK(spec_error(j) == file + "missing field 'lab'");
  }
  SECTION("an 'initial' value on an input") {
    param(j, 0, 0)["initial"] = "zero";
    CHECK(spec_error(j) == part_int + ", param 'in': only outputs have an 'initial' value");
  }
  SECTION("a size ctype other than int or size_t") {
    param(j, 0, 2)["ctype"] = "long";
    CHECK(spec_error(j) == part_int + ", param 'n': ctype must be 'int' or 'size_t'");
  }
}

TEST_CASE("lab_spec: load_lab_spec names the file for invalid JSON and a missing file", "[lab_spec]") {
  gpulab_test::TempDir tmp;
  const auto file = tmp / "lab.json";
  gpulab_test::write_file(file, "{\"lab\": \"unit\", \"parts\": [ }");
  try {
    gpulab::load_lab_spec(file);
    FAIL("invalid JSON was accepted");
  } catch (const LabSpecError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith(file.string() + ": not valid JSON: "));
  }
  CHECK_THROWS_WITH(gpulab::load_lab_spec(tmp / "missing.json"),
                    Catch::StartsWith((tmp / "missing.json").string() + ": cannot open"));

  gpulab_test::write_file(file, valid_spec().dump());
  const gpulab::LabSpec lab = gpulab::load_lab_spec(file);
  CHECK(lab.file == file);
  CHECK(lab.parts.size() == 2);
}

// Fields read with nlohmann's value()/get() escape as json::type_error, whose
// message names neither the file nor the part: lab_spec.hpp promises that
// "every error names the file, the part and the field".
TEST_CASE("lab_spec: optional fields of the wrong JSON type are LabSpecErrors naming the file", "[lab_spec]") {
  json j = valid_spec();
  SECTION("\"public\": \"no\"") { j["parts"][0]["datasets"][1]["public"] = "no"; }
  SECTION("\"initial\": 0") { param(j, 0, 1)["initial"] = 0; }
  SECTION("\"ctype\": 4") { param(j, 0, 2)["ctype"] = 4; }
  SECTION("\"time_limit_s\": \"ten\"") { j["parts"][0]["time_limit_s"] = "ten"; }
  std::string message;
  try {
    gpulab::parse_lab_spec(j, kOrigin);
  } catch (const LabSpecError& e) {
    message = e.what();
  } catch (const std::exception& e) {
    FAIL_CHECK("not a LabSpecError: " << e.what());
  }
  CHECK_THAT(message, Catch::StartsWith(std::string(kOrigin) + ", part 'int'"));
}
