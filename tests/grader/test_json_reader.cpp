// Tests of lab.json's reader (grader/lab/json_reader, nearest_word): the edit
// distance behind "did you mean ...?", JSON paths in messages, typed getters
// with ranges, enumerated values and unknown keys.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "lab/json_reader.hpp"
#include "lab/nearest_word.hpp"

using gpulab::JsonReader;
using gpulab::LabSpecError;
using gpulab::NumberRange;
using nlohmann::json;

namespace {
// The message `f` throws as a LabSpecError ("" when it throws nothing).
template <class F> std::string error_of(F f) {
  try {
    f();
  } catch (const LabSpecError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("nearest_word: edit distance counts insertions, deletions, substitutions and swaps", "[json_reader]") {
  CHECK(gpulab::edit_distance("", "") == 0);
  CHECK(gpulab::edit_distance("abc", "") == 3);
  CHECK(gpulab::edit_distance("time_limt_s", "time_limit_s") == 1);  // a dropped letter
  CHECK(gpulab::edit_distance("hiden", "hidden") == 1);
  CHECK(gpulab::edit_distance("fatcor", "factor") == 1);  // neighbours swapped: one edit
  CHECK(gpulab::edit_distance("kitten", "sitting") == 3);
  CHECK(gpulab::edit_distance("points", "points") == 0);
}

TEST_CASE("nearest_word: suggests a near key, never an unrelated one", "[json_reader]") {
  const std::vector<std::string> keys = {"name", "points", "function", "time_limit_s", "limits", "params"};
  CHECK(gpulab::nearest_word("time_limt_s", keys) == "time_limit_s");
  CHECK(gpulab::nearest_word("pionts", keys) == "points");
  CHECK(gpulab::nearest_word("Name", keys) == "name");
  CHECK(gpulab::nearest_word("colour", keys) == "");
  CHECK(gpulab::nearest_word("x", {"n"}) == "");  // replacing the whole word is no suggestion
  CHECK(gpulab::nearest_word("anything", {}) == "");
}

TEST_CASE("NumberRange: bounds, whole numbers and how they read", "[json_reader]") {
  CHECK(NumberRange::at_least(0).describe() == "a number >= 0");
  CHECK(NumberRange::positive().describe() == "a number > 0");
  CHECK(NumberRange::at_least(1).whole_numbers().describe() == "a whole number >= 1");
  CHECK(NumberRange::between(0, 1).describe() == "a number >= 0 and <= 1");
  CHECK(NumberRange::positive().contains(1e-9));
  CHECK_FALSE(NumberRange::positive().contains(0));
  CHECK_FALSE(NumberRange::at_least(0).contains(-15));
  CHECK_FALSE(NumberRange::any().whole_numbers().contains(2.5));
  CHECK(NumberRange::any().whole_numbers().contains(-3));
  CHECK_FALSE(NumberRange::between(0, 1).contains(1.5));
}

TEST_CASE("JsonReader: messages name the file, the JSON path and the named things", "[json_reader]") {
  const json doc = json::parse(R"({"parts": [{"name": "a"}, {"name": "b", "cases": [1, 2, 3, {"time_limt_s": 4}]}],
                                   "odd keys": {"x y": 1}})");
  const JsonReader r(doc, "x/lab.json");
  const JsonReader c = r.at("parts", "").elements("parts")[1].named("part 'b'").at("cases", "").elements("cases")[3];
  CHECK(c.path() == "parts[1].cases[3]");
  CHECK(error_of([&] { c.fail("broken"); }) == "x/lab.json: parts[1].cases[3] (part 'b'): broken");
  CHECK(error_of([&] { r.fail("broken"); }) == "x/lab.json: broken");
  // A key that is no identifier is written the way JSON would.
  CHECK(r.at("odd keys", "").at("x y", "").path() == "[\"odd keys\"][\"x y\"]");
}

TEST_CASE("JsonReader: an unknown key is named with its path and the nearest allowed key", "[json_reader]") {
  const json doc = json::parse(R"({"parts": [{"name": "a", "time_limt_s": 4}], "colour": 1})");
  const JsonReader r(doc, "x/lab.json");
  const JsonReader part = r.at("parts", "").elements("parts")[0];
  CHECK(error_of([&] {
          part.expect_object({"name", "time_limit_s"}, "a part");
        }) ==
        "x/lab.json: parts[0].time_limt_s: unknown key: did you mean 'time_limit_s'? (the keys allowed here: name, "
        "time_limit_s)");
  CHECK(error_of([&] {
          r.expect_object({"parts", "title"}, "a lab");
        }) == "x/lab.json: colour: unknown key: remove it or use one of the keys allowed here: parts, title");
  CHECK(error_of([&] { r.at("parts", "").expect_object({"a"}, "an object {\"a\": 1}"); }) ==
        "x/lab.json: parts: must be an object {\"a\": 1}, not a list");
}

TEST_CASE("JsonReader: typed getters refuse the wrong type, values out of range and missing keys", "[json_reader]") {
  const json doc = json::parse(R"({"points": -15, "name": "", "factor": "big", "n": 2.5, "flag": 1, "seed": -1,
                                   "list": [], "kind": "exakt"})");
  const JsonReader r(doc, "x/lab.json");
  CHECK(error_of([&] { r.number("points", NumberRange::at_least(0)); }) ==
        "x/lab.json: points: must be a number >= 0, not -15");
  CHECK(error_of([&] { r.text("name"); }) == "x/lab.json: name: must be a non-empty string, not the string ''");
  CHECK(error_of([&] { r.number("factor", NumberRange::positive()); }) ==
        "x/lab.json: factor: must be a number > 0, not the string 'big'");
  CHECK(error_of([&] { r.at("n", "").whole(NumberRange::at_least(1)); }) ==
        "x/lab.json: n: must be a whole number >= 1, not 2.5");
  CHECK(error_of([&] { r.boolean_or("flag", true); }) == "x/lab.json: flag: must be true or false, not 1");
  CHECK(error_of([&] { r.at("seed", "").whole_unsigned(); }) ==
        "x/lab.json: seed: must be a whole number >= 0, not -1");
  CHECK(error_of([&] { r.at("list", "").elements("parts"); }) ==
        "x/lab.json: list: must be a non-empty list of parts, not an empty list");
  CHECK(error_of([&] { r.number("missing", NumberRange::positive()); }) ==
        "x/lab.json: missing key 'missing': add it (a number > 0)");
  CHECK(error_of([&] {
          r.one_of("kind", {"exact", "float_bound"});
        }) == "x/lab.json: kind: unknown value 'exakt': did you mean 'exact'? (use 'exact' or 'float_bound')");
  // What is right passes, with defaults for what is left out.
  CHECK(r.number_or("absent", 7, NumberRange::positive()) == 7);
  CHECK(r.one_of_or("absent", "exact", {"exact"}) == "exact");
  CHECK(r.at("points", "").whole(NumberRange::any()) == -15);
  // Whole numbers >= 0 whether the document was parsed (unsigned) or built in C++ (signed).
  const json built = {{"seed", 3}};
  CHECK(JsonReader(built, "x").at("seed", "").whole_unsigned() == 3);
  CHECK(JsonReader(json::parse(R"({"seed": 18446744073709551615})"), "x").at("seed", "").whole_unsigned() ==
        18446744073709551615ull);
}
