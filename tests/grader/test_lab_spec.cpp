// Tests of lab.json parsing and validation (grader/lab/lab_spec): a valid
// spec gives the right model and C signature; each malformed spec gives a
// LabSpecError whose message names the file, the JSON path, the part and what
// to write instead; every lab of the project loads.
#include <catch2/catch.hpp>

#include <filesystem>
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

TEST_CASE("lab_spec: each malformed spec names the file, the JSON path, the part and the field", "[lab_spec]") {
  json j = valid_spec();
  const std::string file = std::string(kOrigin) + ": ";

  SECTION("unknown role") {
    param(j, 0, 1)["role"] = "inout";
    CHECK(spec_error(j) == file +
                               "parts[0].params[1].role (part 'int', param 'out'): unknown value 'inout': did you mean "
                               "'input'? (use 'input', 'output' or 'size')");
  }
  SECTION("unknown dtype") {
    param(j, 0, 0)["dtype"] = "float16";
    const std::string m = spec_error(j);
    CHECK_THAT(m, Catch::StartsWith(file + "parts[0].params[0].dtype (part 'int', param 'in'): "));
    CHECK_THAT(m, Catch::Contains("unknown value 'float16'") && Catch::Contains("'float32'"));
  }
  SECTION("missing points") {
    j["parts"][1].erase("points");
    CHECK(spec_error(j) == file + "parts[1] (part 'float'): missing key 'points': add it (a number >= 0)");
  }
  SECTION("points that are not a number") {
    j["parts"][0]["points"] = "fifty";
    CHECK(spec_error(j) == file + "parts[0].points (part 'int'): must be a number >= 0, not the string 'fifty'");
  }
  SECTION("a shape naming a param that is not a size") {
    param(j, 0, 1)["shape"] = json::array({"in"});
    CHECK(spec_error(j) == file +
                               "parts[0].params[1].shape[0] (part 'int', param 'out'): 'in' is not a size param of "
                               "this part: name one of its size params or write a number");
  }
  SECTION("a shape naming no param at all") {
    param(j, 0, 0)["shape"] = json::array({"m"});
    CHECK_THAT(spec_error(j),
               Catch::StartsWith(file + "parts[0].params[0].shape[0] (part 'int', param 'in'): 'm' is not"));
  }
  SECTION("a zero in a shape") {
    param(j, 0, 1)["shape"] = json::array({0});
    CHECK(spec_error(j) ==
          file + "parts[0].params[1].shape[0] (part 'int', param 'out'): must be a whole number >= 1, not 0");
  }
  SECTION("duplicate part names") {
    j["parts"][1]["name"] = "int";
    CHECK(spec_error(j) == file + "parts[1]: two parts are named 'int': rename one");
  }
  SECTION("two parts with one host function") {
    j["parts"][1]["function"] = "reduce_sum_int";
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "parts[1].function: two parts name the host function"));
  }
  SECTION("duplicate param names") {
    param(j, 0, 1)["name"] = "in";
    CHECK(spec_error(j) == file + "parts[0].params[1] (part 'int'): two params are named 'in': rename one");
  }
  SECTION("a function name that is not C") {
    j["parts"][0]["function"] = "reduce-sum";
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "parts[0].function (part 'int'): 'reduce-sum' is not a valid C "
                                                       "function name"));
  }
  SECTION("a family whose sizes miss a size param") {
    j["parts"][1]["datasets"][0]["sizes"] = json::parse(R"([{"rows": 3, "cols": 5}, {"rows": 4}])");
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "parts[1].datasets[0].sizes[1] (part 'float', family 'small'): "
                                                       "missing key 'cols'"));
  }
  SECTION("a size that is no size param, with a suggestion") {
    j["parts"][1]["datasets"][0]["sizes"] = json::parse(R"([{"rows": 3, "colls": 5}])");
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "parts[1].datasets[0].sizes[0].colls (part 'float', family "
                                                       "'small'): unknown key: did you mean 'cols'?"));
  }
  SECTION("a negative size") {
    j["parts"][0]["datasets"][0]["sizes"][1]["n"] = -2;
    CHECK(spec_error(j) == file +
                               "parts[0].datasets[0].sizes[1].n (part 'int', family 'tiny'): must be a whole number "
                               ">= 1, not -2");
  }
  SECTION("an input without a distribution") {
    j["parts"][0]["datasets"][1]["inputs"] = json::object();
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "parts[0].datasets[1].inputs (part 'int', family 'large'): "
                                                       "missing key 'in'"));
  }
  SECTION("an input distribution without 'dist'") {
    j["parts"][0]["datasets"][0]["inputs"]["in"] = json::parse(R"({"min": 0, "max": 1})");
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "parts[0].datasets[0].inputs.in (part 'int', family 'tiny'): "
                                                       "missing key 'dist'"));
  }
  SECTION("check kind unknown") {
    j["parts"][0]["check"]["kind"] = "approximate";
    const std::string m = spec_error(j);
    CHECK_THAT(m, Catch::StartsWith(file + "parts[0].check.kind (part 'int'): unknown value 'approximate'"));
    CHECK_THAT(m, Catch::Contains("'exact' or 'float_bound'"));
  }
  SECTION("float_bound without factor") {
    j["parts"][1]["check"].erase("factor");
    CHECK(spec_error(j) == file + "parts[1].check (part 'float'): missing key 'factor': add it (a number > 0)");
  }
  SECTION("a factor on an exact check") {
    j["parts"][0]["check"]["factor"] = 2;
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "parts[0].check.factor (part 'int'): 'factor' belongs to kind "
                                                       "'float_bound' only"));
  }
  SECTION("no parts") {
    j["parts"] = json::array();
    CHECK(spec_error(j) == file + "parts: must be a non-empty list of parts, not an empty list");
  }
  SECTION("missing lab name") {
    j.erase("lab");
    CHECK(spec_error(j) == file + "missing key 'lab': add it (a string)");
  }
  SECTION("an 'initial' value on an input") {
    param(j, 0, 0)["initial"] = "zero";
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "parts[0].params[0].initial (part 'int', param 'in'): only "
                                                       "outputs have an 'initial' value"));
  }
  SECTION("a dtype on a size param") {
    param(j, 0, 2)["dtype"] = "int32";
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "parts[0].params[2].dtype (part 'int', param 'n'): a size param "
                                                       "has no 'dtype'"));
  }
  SECTION("a size ctype other than int or size_t") {
    param(j, 0, 2)["ctype"] = "long";
    CHECK(spec_error(j) == file +
                               "parts[0].params[2].ctype (part 'int', param 'n'): unknown value 'long' (use 'int' or "
                               "'size_t')");
  }
  SECTION("two families with one name") {
    j["parts"][0]["datasets"][1]["family"] = "tiny";
    CHECK(spec_error(j) ==
          file + "parts[0].datasets[1] (part 'int'): two dataset families are named 'tiny': rename one");
  }
  SECTION("a hidden seed variable that is no variable name") {
    j["hidden"]["seed_env"] = "MY SECRET";
    CHECK_THAT(spec_error(j),
               Catch::StartsWith(file + "hidden.seed_env: 'MY SECRET' is not a valid environment variable"));
  }
}

// The rules lab.json was missing: each used to pass silently and misbehave later.
TEST_CASE("lab_spec: nonsense values are refused when the lab loads", "[lab_spec]") {
  json j = valid_spec();
  const std::string file = std::string(kOrigin) + ": ";

  SECTION("negative points (used to give 'score: -15 / -15')") {
    j["parts"][0]["points"] = -15;
    CHECK(spec_error(j) == file + "parts[0].points (part 'int'): must be a number >= 0, not -15");
  }
  SECTION("parts whose points add up to nothing") {
    j["parts"][0]["points"] = 0;
    j["parts"][1]["points"] = 0;
    CHECK(spec_error(j) == file + "parts: the parts' points add up to 0: give at least one part points");
  }
  SECTION("a negative float factor") {
    j["parts"][1]["check"]["factor"] = -2.5;
    CHECK(spec_error(j) == file + "parts[1].check.factor (part 'float'): must be a number > 0, not -2.5");
  }
  SECTION("a zero time limit") {
    j["time_limit_s"] = 0;
    CHECK(spec_error(j) == file + "time_limit_s: must be a number > 0, not 0");
  }
  SECTION("a misspelt key of a part, with the key it should be") {
    j["parts"][1]["time_limt_s"] = 5;
    CHECK(spec_error(j) == file +
                               "parts[1].time_limt_s (part 'float'): unknown key: did you mean 'time_limit_s'? (the "
                               "keys allowed here: name, points, function, time_limit_s, limits, params, check, "
                               "datasets, performance, host_work)");
  }
  SECTION("a misspelt top-level key") {
    j["hiden"] = j["hidden"];
    j.erase("hidden");
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "hiden: unknown key: did you mean 'hidden'?"));
  }
  SECTION("a misspelt key deep down, in a distribution") {
    j["parts"][0]["datasets"][1]["inputs"]["in"]["maxx"] = 4;
    CHECK_THAT(spec_error(j),
               Catch::StartsWith(file + "parts[0].datasets[1].inputs.in.maxx (part 'int', family 'large'): "
                                        "unknown key: did you mean 'max'?"));
  }
  SECTION("an unknown value generator, found at load instead of at datagen") {
    j["parts"][0]["datasets"][1]["inputs"]["in"] = {{"dist", "unifrom_int"}, {"min", 0}, {"max", 9}};
    CHECK(spec_error(j) == file +
                               "parts[0].datasets[1].inputs.in.dist (part 'int', family 'large'): unknown value "
                               "'unifrom_int': did you mean 'uniform_int'? (use 'uniform_int', 'uniform_float', "
                               "'constant', 'mixed_magnitude', 'bytes' or 'text')");
  }
  SECTION("a key another generator takes") {
    j["parts"][1]["datasets"][0]["inputs"]["in"]["value"] = 3;  // mixed_magnitude takes no keys
    CHECK(spec_error(j) == file +
                               "parts[1].datasets[0].inputs.in.value (part 'float', family 'small'): "
                               "'mixed_magnitude' takes no 'value': remove it");
  }
  SECTION("min above max") {
    j["parts"][0]["datasets"][0]["inputs"]["in"] = {{"dist", "uniform_int"}, {"min", 5}, {"max", 1}};
    CHECK(spec_error(j) == file +
                               "parts[0].datasets[0].inputs.in (part 'int', family 'tiny'): min (5) is greater than "
                               "max (1): swap them");
  }
  SECTION("fractional bounds for integers") {
    j["parts"][0]["datasets"][0]["inputs"]["in"] = {{"dist", "uniform_int"}, {"min", 0.5}, {"max", 1}};
    CHECK_THAT(spec_error(j), Catch::Contains("inputs.in.min") && Catch::Contains("must be a whole number"));
  }
  SECTION("values the input's type cannot hold") {
    j["parts"][0]["datasets"][0]["inputs"]["in"] = {{"dist", "constant"}, {"value", 1e12}};
    CHECK_THAT(spec_error(j), Catch::Contains("inputs.in.value") && Catch::Contains("<= 2147483647"));
  }
  SECTION("fractional values for an integer input") {
    j["parts"][0]["datasets"][0]["inputs"]["in"] = {{"dist", "uniform_float"}, {"min", 0}, {"max", 1}};
    CHECK_THAT(spec_error(j), Catch::Contains("inputs.in.dist") && Catch::Contains("input 'in' is int32"));
  }
  SECTION("text for a float input") {
    j["parts"][1]["datasets"][0]["inputs"]["in"] = {{"dist", "text"}};
    CHECK_THAT(spec_error(j), Catch::Contains("inputs.in.dist") && Catch::Contains("char or uint8 inputs only"));
  }
  SECTION("a value of the wrong type") {
    j["parts"][0]["datasets"][1]["public"] = "no";
    CHECK(spec_error(j) == file +
                               "parts[0].datasets[1].public (part 'int', family 'large'): must be true or false, not "
                               "the string 'no'");
  }
  SECTION("a visibility Gradescope does not know") {
    j["hidden"]["visibility"] = "sometimes";
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "hidden.visibility: unknown value 'sometimes'") &&
                                  Catch::Contains("'after_due_date'"));
  }
  SECTION("a version that is a number") {
    j["version"] = 3;
    CHECK(spec_error(j) == file + "version: must be a non-empty string, not 3");
  }
  SECTION("a negative public seed") {
    j["public_seed"] = -1;
    CHECK(spec_error(j) == file + "public_seed: must be a whole number >= 0, not -1");
  }
}

// Every lab of the project and of the tests loads: the rules refuse nonsense, not the labs.
TEST_CASE("lab_spec: every lab.json of the project loads", "[lab_spec]") {
  namespace fs = std::filesystem;
  const fs::path root = GPULAB_TEST_SOURCE_DIR;
  int labs = 0;
  for (const fs::path& dir : {root / "assignments", root / "tests/batch/new_lab/assignments"}) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (!fs::exists(e.path() / "lab.json")) continue;
      INFO(e.path());
      const gpulab::LabSpec lab = gpulab::load_lab_spec(e.path() / "lab.json");
      CHECK(lab.lab == e.path().filename().string());
      CHECK(lab.total_points() > 0);
      ++labs;
    }
  }
  CHECK(labs == 6);  // five labs and the test lab vector_add
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

// Values of the wrong JSON type are LabSpecErrors naming the file and the path, never
// nlohmann's own type errors.
TEST_CASE("lab_spec: optional fields of the wrong JSON type are LabSpecErrors naming the file", "[lab_spec]") {
  json j = valid_spec();
  std::string path;
  SECTION("\"public\": \"no\"") {
    j["parts"][0]["datasets"][1]["public"] = "no";
    path = "parts[0].datasets[1].public";
  }
  SECTION("\"initial\": 0") {
    param(j, 0, 1)["initial"] = 0;
    path = "parts[0].params[1].initial";
  }
  SECTION("\"ctype\": 4") {
    param(j, 0, 2)["ctype"] = 4;
    path = "parts[0].params[2].ctype";
  }
  SECTION("\"time_limit_s\": \"ten\"") {
    j["parts"][0]["time_limit_s"] = "ten";
    path = "parts[0].time_limit_s";
  }
  std::string message;
  try {
    gpulab::parse_lab_spec(j, kOrigin);
  } catch (const LabSpecError& e) {
    message = e.what();
  } catch (const std::exception& e) {
    FAIL_CHECK("not a LabSpecError: " << e.what());
  }
  CHECK_THAT(message, Catch::StartsWith(std::string(kOrigin) + ": " + path + " (part 'int'"));
}

TEST_CASE("lab_spec: library_algorithms is read, and each malformed entry is named", "[lab_spec]") {
  json j = valid_spec();
  j["library_algorithms"] = json::parse(R"({
    "task": "write the reduction kernel yourself",
    "allowed": "block-level CUB inside your own kernel is fine",
    "algorithms": [{"names": ["cub::DeviceReduce::*", "cub::detail::reduce::DeviceReduce*Kernel"],
                    "is": "CUB's whole device-wide reduction"},
                   {"names": ["cublas*"], "is": "cuBLAS"}]})");
  const std::string file = std::string(kOrigin) + ": ";
  SECTION("read into the model, in order") {
    const gpulab::LabSpec lab = gpulab::parse_lab_spec(j, kOrigin);
    CHECK(lab.library_algorithms.task == "write the reduction kernel yourself");
    REQUIRE(lab.library_algorithms.algorithms.size() == 2);
    CHECK(lab.library_algorithms.algorithms[0].names ==
          std::vector<std::string>{"cub::DeviceReduce::*", "cub::detail::reduce::DeviceReduce*Kernel"});
    CHECK(lab.library_algorithms.algorithms[1].is == "cuBLAS");
    // Absent, the lab names none.
    CHECK(gpulab::parse_lab_spec(valid_spec(), kOrigin).library_algorithms.algorithms.empty());
  }
  SECTION("a pattern with a space") {
    j["library_algorithms"]["algorithms"][1]["names"][0] = "cublas Sgemm";
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "library_algorithms.algorithms[1].names[0]") &&
                                  Catch::Contains("'cublas Sgemm' holds a space"));
  }
  SECTION("a misspelt key") {
    j["library_algorithms"]["algorithms"][0]["iss"] = "x";
    CHECK(spec_error(j) ==
          file +
              "library_algorithms.algorithms[0].iss: unknown key: did you mean 'is'? (the keys allowed "
              "here: names, is)");
  }
  SECTION("no task") {
    j["library_algorithms"].erase("task");
    CHECK_THAT(spec_error(j), Catch::Contains("library_algorithms") && Catch::Contains("missing key 'task'"));
  }
  SECTION("an algorithm without names") {
    j["library_algorithms"]["algorithms"][0]["names"] = json::array();
    CHECK_THAT(spec_error(j), Catch::StartsWith(file + "library_algorithms.algorithms[0].names"));
  }
}
