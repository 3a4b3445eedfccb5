// The one way lab.json is read (lab_spec, performance_spec, case_inputs,
// bench_spec), and the reports a submission's process writes (grade/
// harness_report): a value of the document together with its file and JSON
// path (`parts[1].datasets[3].inputs.in`), with typed getters that check types,
// ranges and enumerated values, and objects that refuse keys they do not know
// ("did you mean `time_limit_s`?"). Every failure names the file, the path,
// what is wrong and what to write instead: a LabSpecError for lab.json, an
// UntrustedInputError for what a submission's process wrote.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lab/lab_spec.hpp"

namespace gpulab {

// A document a submission's process wrote is not what its reader expects: the process that wrote it
// (the submission's, with the harness in it) cannot be trusted, so the caller fails that run, never
// the grader.
struct UntrustedInputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The numbers a field accepts: bounds (open or closed) and whether it must be whole.
struct NumberRange {
  std::optional<double> low, high;
  bool low_open = false, high_open = false;
  bool whole = false;

  static NumberRange any() { return {}; }
  static NumberRange at_least(double v) { return {v, std::nullopt, false, false, false}; }
  static NumberRange positive() { return {0.0, std::nullopt, true, false, false}; }
  static NumberRange between(double lo, double hi) { return {lo, hi, false, false, false}; }
  NumberRange whole_numbers() const {
    NumberRange r = *this;
    r.whole = true;
    return r;
  }
  bool contains(double v) const;
  std::string describe() const;  // "a number > 0", "a whole number >= 1", "a number from 0 to 1"
};

class JsonReader {
 public:
  // Who wrote the document: its errors are LabSpecErrors or UntrustedInputErrors.
  enum class Source { lab_spec, untrusted };
  // The whole document, read from `file` (as messages name it).
  JsonReader(const nlohmann::json& document, std::string file, Source source = Source::lab_spec);

  const nlohmann::json& value() const { return *value_; }
  const std::string& file() const { return file_; }
  std::string path() const { return path_; }  // "" for the document itself
  // A copy whose messages also say which named thing this is: "(part 'int', family 'tiny')".
  JsonReader named(const std::string& label) const;
  // named(kind + " '<name>'") when this object's `key` holds a name, else a plain copy: so that even
  // an error found before the name is read (an unknown key) says which part, family or case it is in.
  JsonReader named_by(const std::string& key, const std::string& kind) const;
  // Throws LabSpecError (or UntrustedInputError) "<file>: <path> (<names>): <problem>".
  [[noreturn]] void fail(const std::string& problem) const;

  // --- objects ---
  // Fails unless this is an object whose keys are all in `allowed`; an unknown key is named with the
  // nearest allowed one ("did you mean ...?"). `what` says what the object should be, for the type error.
  const JsonReader& expect_object(const std::vector<std::string>& allowed, const std::string& what) const;
  bool has(const std::string& key) const;
  JsonReader at(const std::string& key, const std::string& what) const;  // required: `what` says what to write
  std::optional<JsonReader> find(const std::string& key) const;
  std::vector<std::pair<std::string, JsonReader>> items() const;  // in the document's order

  // --- lists ---
  // Fails unless this is a list with at least `min_count` and at most `max_count` elements; `what`
  // describes an element.
  std::vector<JsonReader> elements(const std::string& what, size_t min_count = 1,
                                   size_t max_count = static_cast<size_t>(-1)) const;

  // --- this value as a scalar ---
  std::string text() const;                      // a non-empty string
  std::string any_text(size_t max_bytes) const;  // a string, possibly empty, of at most max_bytes
  double number(const NumberRange& range) const;
  long long whole(const NumberRange& range) const;  // a whole number within range
  unsigned long long whole_unsigned() const;        // 0 to 2^64-1 (seeds)
  bool boolean() const;
  // A string among `allowed`; otherwise fails listing them, with the nearest as a suggestion.
  std::string one_of(const std::vector<std::string>& allowed) const;

  // --- keys of this object, required or with a default ---
  std::string text(const std::string& key) const { return at(key, "a string").text(); }
  std::string text_or(const std::string& key, const std::string& fallback) const;
  double number(const std::string& key, const NumberRange& range) const {
    return at(key, range.describe()).number(range);
  }
  double number_or(const std::string& key, double fallback, const NumberRange& range) const;
  bool boolean_or(const std::string& key, bool fallback) const;
  std::string one_of(const std::string& key, const std::vector<std::string>& allowed) const;
  std::string one_of_or(const std::string& key, const std::string& fallback,
                        const std::vector<std::string>& allowed) const;

  // How a JSON value reads in a message: 3, -1.5, the string "x", a list, an object, null.
  static std::string describe(const nlohmann::json& v);

 private:
  JsonReader(const nlohmann::json* value, std::string file, std::string path, std::string names, Source source)
      : value_(value), file_(std::move(file)), path_(std::move(path)), names_(std::move(names)), source_(source) {}
  JsonReader child(const std::string& key) const;
  std::string where() const;

  const nlohmann::json* value_;
  std::string file_;
  std::string path_;
  std::string names_;
  Source source_ = Source::lab_spec;
};

// "a, b or c".
std::string word_list(const std::vector<std::string>& words, const std::string& last_joiner = " or ");

}  // namespace gpulab
