// Reading lab.json with paths, types, ranges, enumerations and unknown keys checked.
#include "lab/json_reader.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>

#include <fmt/format.h>

#include "lab/nearest_word.hpp"

namespace gpulab {
namespace {

std::string format_number(double v) { return fmt::format("{:.15g}", v); }

bool is_identifier(const std::string& key) {
  if (key.empty() || std::isdigit(static_cast<unsigned char>(key[0]))) return false;
  return std::all_of(key.begin(), key.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A plausible suggestion for `word` among `candidates`, as "; did you mean 'x'?" or "".
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string near = nearest_word(word, candidates);
  return near.empty() ? "" : ": did you mean '" + near + "'?";
}
}  // namespace

std::string word_list(const std::vector<std::string>& words, const std::string& last_joiner) {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) s += i + 1 == words.size() ? last_joiner : ", ";
    s += words[i];
  }
  return s;
}

bool NumberRange::contains(double v) const {
  if (!std::isfinite(v)) return false;
  if (whole && std::floor(v) != v) return false;
  if (low && (low_open ? v <= *low : v < *low)) return false;
  if (high && (high_open ? v >= *high : v > *high)) return false;
  return true;
}

std::string NumberRange::describe() const {
  std::string s = whole ? "a whole number" : "a number";
  if (low) s += std::string(low_open ? " > " : " >= ") + format_number(*low);
  if (low && high) s += " and";
  if (high) s += std::string(high_open ? " < " : " <= ") + format_number(*high);
  return s;
}

JsonReader::JsonReader(const nlohmann::json& document, std::string file, Source source)
    : value_(&document), file_(std::move(file)), source_(source) {}

JsonReader JsonReader::named_by(const std::string& key, const std::string& kind) const {
  if (!has(key) || !value_->at(key).is_string() || value_->at(key).get<std::string>().empty()) return *this;
  return named(kind + " '" + value_->at(key).get<std::string>() + "'");
}

JsonReader JsonReader::named(const std::string& label) const {
  return JsonReader(value_, file_, path_, names_.empty() ? label : names_ + ", " + label, source_);
}

std::string JsonReader::where() const {
  std::string w = file_;
  if (!path_.empty()) w += ": " + path_;
  if (!names_.empty()) w += " (" + names_ + ")";
  return w;
}

void JsonReader::fail(const std::string& problem) const {
  if (source_ == Source::untrusted) throw UntrustedInputError(where() + ": " + problem);
  throw LabSpecError(where() + ": " + problem);
}

std::string JsonReader::describe(const nlohmann::json& v) {
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.size() > 40) s.replace(37, std::string::npos, "...");
    return "the string '" + s + "'";
  }
  if (v.is_array()) {
    if (v.empty()) return "an empty list";
    const bool flat = std::all_of(v.begin(), v.end(), [](const nlohmann::json& e) { return e.is_primitive(); });
    const std::string text = v.dump();
    return flat && text.size() <= 40 ? "the list " + text : "a list";
  }
  if (v.is_object()) return "an object";
  if (v.is_number_float()) return format_number(v.get<double>());
  return v.dump();  // integers, true, false, null
}

JsonReader JsonReader::child(const std::string& key) const {
  const std::string step = is_identifier(key) ? key : "[" + nlohmann::json(key).dump() + "]";
  const std::string path = path_.empty() || step[0] == '[' ? path_ + step : path_ + "." + step;
  return JsonReader(&value_->at(key), file_, path, names_, source_);
}

const JsonReader& JsonReader::expect_object(const std::vector<std::string>& allowed, const std::string& what) const {
  if (!value_->is_object()) fail("must be " + what + ", not " + describe(*value_));
  for (auto it = value_->begin(); it != value_->end(); ++it) {
    if (std::find(allowed.begin(), allowed.end(), it.key()) != allowed.end()) continue;
    const std::string near = nearest_word(it.key(), allowed);
    if (!near.empty()) {
      child(it.key()).fail("unknown key: did you mean '" + near +
                           "'? (the keys allowed here: " + word_list(allowed, ", ") + ")");
    }
    child(it.key()).fail(allowed.empty() ? "unknown key: this object takes no keys; remove it"
                                         : "unknown key: remove it or use one of the keys allowed here: " +
                                               word_list(allowed, ", "));
  }
  return *this;
}

bool JsonReader::has(const std::string& key) const { return value_->is_object() && value_->contains(key); }

JsonReader JsonReader::at(const std::string& key, const std::string& what) const {
  if (!value_->is_object()) fail("must be an object with the key '" + key + "', not " + describe(*value_));
  if (!value_->contains(key)) fail("missing key '" + key + "': add it (" + what + ")");
  return child(key);
}

std::optional<JsonReader> JsonReader::find(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return child(key);
}

std::vector<std::pair<std::string, JsonReader>> JsonReader::items() const {
  std::vector<std::pair<std::string, JsonReader>> out;
  if (!value_->is_object()) fail("must be an object, not " + describe(*value_));
  for (auto it = value_->begin(); it != value_->end(); ++it) out.emplace_back(it.key(), child(it.key()));
  return out;
}

std::vector<JsonReader> JsonReader::elements(const std::string& what, size_t min_count, size_t max_count) const {
  if (value_->is_array() && value_->size() > max_count) {
    fail("must be a list of at most " + std::to_string(max_count) + " " + what + ", not " +
         std::to_string(value_->size()));
  }
  if (!value_->is_array() || value_->size() < min_count) {
    const std::string want = min_count == 0   ? "a list of " + what
                             : min_count == 1 ? "a non-empty list of " + what
                                              : "a list of at least " + std::to_string(min_count) + " " + what;
    fail("must be " + want + ", not " + describe(*value_));
  }
  std::vector<JsonReader> out;
  for (size_t i = 0; i < value_->size(); ++i) {
    out.push_back(JsonReader(&value_->at(i), file_, path_ + "[" + std::to_string(i) + "]", names_, source_));
  }
  return out;
}

std::string JsonReader::text() const {
  if (!value_->is_string() || value_->get<std::string>().empty()) {
    fail("must be a non-empty string, not " + describe(*value_));
  }
  return value_->get<std::string>();
}

std::string JsonReader::any_text(size_t max_bytes) const {
  if (!value_->is_string()) fail("must be a string, not " + describe(*value_));
  const std::string& s = value_->get_ref<const std::string&>();
  if (s.size() > max_bytes) {
    fail("must be a string of at most " + std::to_string(max_bytes) + " bytes, not " + std::to_string(s.size()));
  }
  return s;
}

double JsonReader::number(const NumberRange& range) const {
  if (!value_->is_number() || !range.contains(value_->get<double>())) {
    fail("must be " + range.describe() + ", not " + describe(*value_));
  }
  return value_->get<double>();
}

long long JsonReader::whole(const NumberRange& range) const {
  const NumberRange r = range.whole_numbers();
  const bool fits =
      value_->is_number_integer() &&
      !(value_->is_number_unsigned() && value_->get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX));
  if (!fits || !r.contains(static_cast<double>(value_->get<long long>()))) {
    fail("must be " + r.describe() + ", not " + describe(*value_));
  }
  return value_->get<long long>();
}

unsigned long long JsonReader::whole_unsigned() const {
  // A document built in C++ holds 3 as a signed integer, a parsed one as an unsigned one.
  if (!value_->is_number_unsigned() && !(value_->is_number_integer() && value_->get<long long>() >= 0)) {
    fail("must be a whole number >= 0, not " + describe(*value_));
  }
  return value_->get<unsigned long long>();
}

bool JsonReader::boolean() const {
  if (!value_->is_boolean()) fail("must be true or false, not " + describe(*value_));
  return value_->get<bool>();
}

std::string JsonReader::one_of(const std::vector<std::string>& allowed) const {
  std::vector<std::string> quoted;
  for (const std::string& a : allowed) quoted.push_back("'" + a + "'");
  if (!value_->is_string()) fail("must be one of " + word_list(quoted) + ", not " + describe(*value_));
  const std::string v = value_->get<std::string>();
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    fail("unknown value '" + v + "'" + suggestion(v, allowed) + " (use " + word_list(quoted) + ")");
  }
  return v;
}

std::string JsonReader::text_or(const std::string& key, const std::string& fallback) const {
  return has(key) ? child(key).text() : fallback;
}

double JsonReader::number_or(const std::string& key, double fallback, const NumberRange& range) const {
  return has(key) ? child(key).number(range) : fallback;
}

bool JsonReader::boolean_or(const std::string& key, bool fallback) const {
  return has(key) ? child(key).boolean() : fallback;
}

std::string JsonReader::one_of(const std::string& key, const std::vector<std::string>& allowed) const {
  std::vector<std::string> quoted;
  for (const std::string& a : allowed) quoted.push_back("'" + a + "'");
  return at(key, "one of " + word_list(quoted)).one_of(allowed);
}

std::string JsonReader::one_of_or(const std::string& key, const std::string& fallback,
                                  const std::vector<std::string>& allowed) const {
  return has(key) ? child(key).one_of(allowed) : fallback;
}

}  // namespace gpulab
