// Failure classes from the grader's own feedback sentences, and the class of a
// whole submission (its most frequent case class; compile errors first).
#include <catch2/catch.hpp>

#include "batch/failure_class.hpp"

using gpulab::batch::classify_case_feedback;
using gpulab::batch::summarize_failures;
using nlohmann::json;

TEST_CASE("failure class: one per kind of feedback", "[batch][failures]") {
  CHECK(classify_case_feedback("timed out after 30 s (an endless loop, a deadlock, or far too slow)") == "timeout");
  CHECK(classify_case_feedback("crashed (segmentation fault: an invalid memory access)\n  emulator: out-of-bounds") ==
        "crash");
  CHECK(classify_case_feedback("ended (exit code 1) before the harness could check the outputs") == "early_exit");
  CHECK(classify_case_feedback("your file does not define `void scan(int* a)`: check the function's name") ==
        "missing_function");
  CHECK(classify_case_feedback("no kernel was launched: the host function must do its work on the GPU") == "no_kernel");
  CHECK(classify_case_feedback("CUDA reported cudaErrorIllegalAddress after your host function returned") ==
        "cuda_error");
  CHECK(classify_case_feedback("out-of-bounds write after buffer 'out'") == "out_of_bounds");
  CHECK(classify_case_feedback("input 'in' was modified: inputs are read-only") == "input_modified");
  CHECK(classify_case_feedback("output 'out' was not produced: missing file") == "missing_output");
  CHECK(classify_case_feedback("out[3] = 7, expected 8; 1 of 33 wrong") == "wrong_answer");
  // A race wins over the wrong answers it causes, wherever it is listed.
  CHECK(classify_case_feedback("bins[0] = 1, expected 2; 1 of 7 wrong\ndata race (found by the emulator's race check)") ==
        "data_race");
  // The emulator's findings (indented) never decide the class.
  CHECK(classify_case_feedback("out[0] = 1, expected 2; 1 of 1 wrong\n  emulator: out-of-bounds write") ==
        "wrong_answer");
  CHECK(classify_case_feedback("something new") == "other");
  CHECK(gpulab::batch::failure_class_title("timeout") == "timed out");
}

TEST_CASE("failure class: of a submission", "[batch][failures]") {
  const json compile_error = {{"compiled", false},
                              {"compile_output", "In function 'x':\nbad.cu:3:14: error: expected ';'\n"},
                              {"parts", json::array()}};
  const auto c = summarize_failures(compile_error);
  CHECK(c.failure_class == "compile_error");
  CHECK(c.example == "bad.cu:3:14: error: expected ';'");

  auto case_ = [](bool passed, const std::string& label, const std::string& feedback) {
    return json{{"passed", passed}, {"label", label}, {"feedback", feedback}};
  };
  const json mixed = {
      {"compiled", true},
      {"parts",
       {{{"name", "int"},
         {"cases",
          {case_(true, "dataset 1 (n=1)", ""), case_(false, "dataset 2 (n=33)", "out[0] = 1, expected 2; 1 of 1 wrong"),
           case_(false, "dataset 3 (n=99)", "timed out after 30 s"),
           case_(false, "dataset 4 (n=5)", "out[1] = 1, expected 3; 2 of 5 wrong"),
           case_(false, "dataset 5 (n=7)", "out[6] = 0, expected 3; 1 of 7 wrong")}}},
        {{"name", "float"}, {"cases", {case_(false, "dataset 1 (n=1)", "timed out after 30 s")}}}}}};
  const auto m = summarize_failures(mixed);
  CHECK(m.failure_class == "wrong_answer");  // 3 wrong answers, 2 time-outs
  CHECK(m.example == "int: dataset 2 (n=33): out[0] = 1, expected 2; 1 of 1 wrong");
  REQUIRE(m.classes.size() == 2);
  CHECK(m.classes[0].first == "timeout");
  CHECK(m.classes[0].second == "int: dataset 3 (n=99): timed out after 30 s");
  CHECK(m.classes[1].first == "wrong_answer");

  // A tie goes to the class listed first (time-outs before wrong answers).
  json tie = mixed;
  tie["parts"][0]["cases"].erase(4);
  CHECK(summarize_failures(tie).failure_class == "timeout");

  const json clean = {{"compiled", true}, {"parts", {{{"name", "int"}, {"cases", {case_(true, "d", "")}}}}}};
  CHECK(summarize_failures(clean).failure_class.empty());
  CHECK(summarize_failures(clean).classes.empty());
}
