// gpulab-results/1 <-> ResultsRecord. The reader checks every key it reads:
// present, of its type, and for enumerations one of the known words.
#include "grade/results_model.hpp"

#include <fstream>
#include <sstream>

#include "profile/profile_report.hpp"

namespace gpulab::grade {
using nlohmann::json;

namespace {
// A JSON value with the file and the path it was found at, for messages.
class Field {
 public:
  Field(const json& v, const std::string& file, std::string path) : v_(v), file_(file), path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw ResultsFormatError(file_ + ": " + (path_.empty() ? "" : path_ + ": ") + problem +
                             " (not a gpulab-results/1 file as this gpulab writes it; grade the submission again)");
  }
  bool has(const char* key) const { return v_.is_object() && v_.contains(key); }
  Field at(const char* key) const {
    if (!v_.is_object()) fail("expected an object");
    if (!v_.contains(key)) fail("key '" + std::string(key) + "' is missing");
    return Field(v_.at(key), file_, path_.empty() ? key : path_ + "." + key);
  }
  std::vector<Field> elements() const {
    if (!v_.is_array()) fail("expected a list, found " + found());
    std::vector<Field> out;
    for (size_t i = 0; i < v_.size(); ++i) out.emplace_back(v_[i], file_, path_ + "[" + std::to_string(i) + "]");
    return out;
  }
  std::string text() const {
    if (!v_.is_string()) fail("expected a string, found " + found());
    return v_.get<std::string>();
  }
  double number() const {
    if (!v_.is_number()) fail("expected a number, found " + found());
    return v_.get<double>();
  }
  int whole() const {
    if (!v_.is_number_integer()) fail("expected a whole number, found " + found());
    return v_.get<int>();
  }
  bool boolean() const {
    if (!v_.is_boolean()) fail("expected true or false, found " + found());
    return v_.get<bool>();
  }
  std::vector<std::string> texts() const {
    std::vector<std::string> out;
    for (const Field& e : elements()) out.push_back(e.text());
    return out;
  }
  // One of the enumeration's words (NLOHMANN_JSON_SERIALIZE_ENUM maps an unknown word to its first value).
  template <class E> E word() const {
    const std::string w = text();
    const E e = v_.get<E>();
    if (json(e) != v_) fail("unknown value \"" + w + "\"");
    return e;
  }
  const json& raw() const { return v_; }

 private:
  std::string found() const {
    if (v_.is_null()) return "null";
    if (v_.is_string()) return "the string \"" + v_.get<std::string>() + "\"";
    if (v_.is_boolean()) return v_.get<bool>() ? "true" : "false";
    if (v_.is_number()) return v_.dump();
    return v_.is_array() ? "a list" : "an object";
  }
  const json& v_;
  const std::string& file_;
  std::string path_;
};

json performance_json(const PerformanceResult& r) {
  json j = {{"status", r.status},
            {"counted", r.counted},
            {"score", r.score},
            {"max_score", r.max_score},
            {"seconds", r.seconds},
            {"spread", r.spread},
            {"runs", r.runs},
            {"reference_seconds", r.reference_seconds},
            {"ratio", r.ratio},
            {"rate", r.rate},
            {"rate_unit", r.rate_unit},
            {"copy_bandwidth_bytes_per_s", r.copy_bandwidth},
            {"bandwidth_fraction", r.bandwidth_fraction},
            {"device", r.device},
            {"case", r.case_label},
            {"calls_checked", r.calls_checked},
            {"calls", r.calls},
            {"l2_flush_bytes", r.l2_flush_bytes},
            {"l2_persisting_reset", r.l2_persisting_reset},
            {"feedback", r.feedback}};
  if (!r.review.empty()) j["review"] = r.review;
  if (r.wall_per_call_s > 0) {
    j["wall_clock"] = {{"wall_per_call_s", r.wall_per_call_s},
                       {"harness_per_call_s", r.harness_per_call_s},
                       {"overhead_per_call_s", r.overhead_per_call_s},
                       {"unexplained_per_call_s", r.unexplained_per_call_s},
                       {"noise_s", r.bound_noise_s},
                       {"margin_s", r.bound_margin_s}};
  }
  if (r.rate_unit == "GB/s") j["gbps"] = r.rate;
  else j["gflops"] = r.rate;
  return j;
}

PerformanceResult performance_from(const Field& f) {
  PerformanceResult r;
  r.status = f.at("status").word<PerformanceStatus>();
  r.counted = f.at("counted").boolean();
  r.score = f.at("score").number();
  r.max_score = f.at("max_score").number();
  r.seconds = f.at("seconds").number();
  r.spread = f.at("spread").number();
  r.runs = f.at("runs").whole();
  r.reference_seconds = f.at("reference_seconds").number();
  r.ratio = f.at("ratio").number();
  r.rate = f.at("rate").number();
  r.rate_unit = f.at("rate_unit").text();
  r.copy_bandwidth = f.at("copy_bandwidth_bytes_per_s").number();
  r.bandwidth_fraction = f.at("bandwidth_fraction").number();
  r.device = f.at("device").text();
  r.case_label = f.at("case").text();
  r.calls_checked = f.at("calls_checked").whole();
  r.calls = f.at("calls").whole();
  r.l2_flush_bytes = f.at("l2_flush_bytes").number();
  r.l2_persisting_reset = f.at("l2_persisting_reset").boolean();
  r.feedback = f.at("feedback").text();
  if (f.has("review")) r.review = f.at("review").text();
  if (f.has("wall_clock")) {
    const Field c = f.at("wall_clock");
    r.wall_per_call_s = c.at("wall_per_call_s").number();
    r.harness_per_call_s = c.at("harness_per_call_s").number();
    if (c.has("overhead_per_call_s")) r.overhead_per_call_s = c.at("overhead_per_call_s").number();
    r.unexplained_per_call_s = c.at("unexplained_per_call_s").number();
    if (c.has("noise_s")) r.bound_noise_s = c.at("noise_s").number();
    r.bound_margin_s = c.at("margin_s").number();
  }
  return r;
}

CaseRecord case_from(const Field& f) {
  CaseRecord c;
  c.id = f.at("id").text();
  c.label = f.at("label").text();
  c.family = f.at("family").text();
  c.hidden = f.at("hidden").boolean();
  c.passed = f.at("passed").boolean();
  c.score = f.at("score").number();
  c.max_score = f.at("max_score").number();
  c.seconds = f.at("seconds").number();
  c.feedback = f.at("feedback").text();
  c.diagnostics = f.at("diagnostics").texts();
  // Absent in files written before cases carried their kind: unknown, never guessed from the feedback.
  c.failure_kind = f.has("failure_kind") ? f.at("failure_kind").word<FailureKind>() : FailureKind::unknown;
  return c;
}

PartRecord part_from(const Field& f) {
  PartRecord p;
  p.name = f.at("name").text();
  p.signature = f.at("signature").text();
  p.score = f.at("score").number();
  p.max_score = f.at("max_score").number();
  for (const Field& c : f.at("cases").elements()) p.cases.push_back(case_from(c));
  if (f.has("performance")) p.performance = performance_from(f.at("performance"));
  if (f.has("sanitizer")) {
    const Field s = f.at("sanitizer");
    p.sanitizer = SanitizerRecord{s.at("case").text(), s.at("findings").texts()};
  }
  if (f.has("profile")) p.profile = f.at("profile").raw();
  if (f.has("counters")) p.counters = f.at("counters").raw();
  return p;
}
}  // namespace

const PartRecord* ResultsRecord::part(const std::string& name) const {
  for (const PartRecord& p : parts)
    if (p.name == name) return &p;
  return nullptr;
}

ResultsRecord results_record(const GradeResult& g) {
  ResultsRecord r;
  r.lab = g.lab;
  r.lab_version = g.lab_version;
  r.submission = g.submission;
  r.backend = g.backend;
  r.compiled = g.compiled;
  r.compile_output = g.compile_output;
  r.not_graded = g.not_graded;
  r.score = g.score;
  r.max_score = g.max_score;
  r.seconds = g.seconds;
  r.compile_seconds = g.compile_seconds;
  r.performance_note = g.performance_note;
  r.isolation = g.isolation;
  r.review = g.review;
  r.audit = g.audit;
  for (const PartResult& p : g.parts) {
    PartRecord pr;
    pr.name = p.name;
    pr.signature = p.signature;
    pr.score = p.score;
    pr.max_score = p.max_score;
    for (const CaseResult& c : p.cases) {
      pr.cases.push_back({c.id, c.label, c.family, c.hidden, c.passed, c.score, c.max_score, c.seconds, c.feedback,
                          c.diagnostics, c.passed ? FailureKind::none : c.failure});
    }
    pr.performance = p.performance;
    if (p.sanitized) pr.sanitizer = SanitizerRecord{p.sanitizer_case, p.sanitizer_findings};
    if (p.profile) pr.profile = profile::profile_json(*p.profile);
    if (!p.counters_case.empty() || !p.counters_problem.empty()) {
      pr.counters = json{{"case", p.counters_case},
                         {"source", p.counters_source},
                         {"kernels", p.counters},
                         {"problem", p.counters_problem}};
    }
    r.parts.push_back(std::move(pr));
  }
  return r;
}

json to_json(const ResultsRecord& r) {
  json parts = json::array();
  for (const PartRecord& p : r.parts) {
    json cases = json::array();
    for (const CaseRecord& c : p.cases) {
      cases.push_back({{"id", c.id},
                       {"label", c.label},
                       {"family", c.family},
                       {"hidden", c.hidden},
                       {"passed", c.passed},
                       {"score", c.score},
                       {"max_score", c.max_score},
                       {"seconds", c.seconds},
                       {"feedback", c.feedback},
                       {"diagnostics", c.diagnostics},
                       {"failure_kind", c.failure_kind}});
    }
    json part = {
        {"name", p.name}, {"signature", p.signature}, {"score", p.score}, {"max_score", p.max_score}, {"cases", cases}};
    if (p.performance) part["performance"] = performance_json(*p.performance);
    if (p.sanitizer) part["sanitizer"] = {{"case", p.sanitizer->case_label}, {"findings", p.sanitizer->findings}};
    if (p.profile) part["profile"] = *p.profile;
    if (p.counters) part["counters"] = *p.counters;
    parts.push_back(part);
  }
  json review = json::array();
  for (const ReviewNote& n : r.review) review.push_back({{"part", n.part}, {"reason", n.reason}});
  json audit = json::array();
  for (const AuditNote& n : r.audit) {
    audit.push_back({{"kind", n.kind}, {"symbol", n.symbol}, {"sentence", n.sentence}, {"where", n.where}});
  }
  return {{"schema", kResultsSchema},
          {"lab", r.lab},
          {"lab_version", r.lab_version},
          {"submission", r.submission},
          {"backend", r.backend},
          {"compiled", r.compiled},
          {"compile_output", r.compile_output},
          {"not_graded", r.not_graded},
          {"score", r.score},
          {"max_score", r.max_score},
          {"seconds", r.seconds},
          {"compile_seconds", r.compile_seconds},
          {"performance_note", r.performance_note},
          {"isolation", r.isolation},
          {"parts", parts},
          {"review", review},
          {"audit", audit}};
}

ResultsRecord results_from_json(const json& j, const std::string& origin) {
  const Field f(j, origin, "");
  if (!j.is_object()) f.fail("expected a JSON object");
  const std::string schema = f.at("schema").text();
  if (schema != kResultsSchema) f.fail("schema is \"" + schema + "\", this gpulab reads \"" + kResultsSchema + "\"");
  ResultsRecord r;
  r.lab = f.at("lab").text();
  r.lab_version = f.at("lab_version").text();
  r.submission = f.at("submission").text();
  r.backend = f.at("backend").text();
  r.compiled = f.at("compiled").boolean();
  r.compile_output = f.at("compile_output").text();
  r.not_graded = f.at("not_graded").text();
  r.score = f.at("score").number();
  r.max_score = f.at("max_score").number();
  r.seconds = f.at("seconds").number();
  r.compile_seconds = f.at("compile_seconds").number();
  r.performance_note = f.at("performance_note").text();
  r.isolation = f.at("isolation").text();
  for (const Field& p : f.at("parts").elements()) r.parts.push_back(part_from(p));
  if (f.has("review")) {
    for (const Field& n : f.at("review").elements()) r.review.push_back({n.at("part").text(), n.at("reason").text()});
  }
  if (f.has("audit")) {
    for (const Field& n : f.at("audit").elements()) {
      r.audit.push_back({n.at("kind").text(), n.at("symbol").text(), n.at("sentence").text(), n.at("where").text()});
    }
  }
  return r;
}

ResultsRecord read_results_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw ResultsFormatError(file.string() + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  json j;
  try {
    j = json::parse(text.str());
  } catch (const json::parse_error& e) {
    throw ResultsFormatError(file.string() + ": not valid JSON (" + e.what() + ")");
  }
  return results_from_json(j, file.string());
}

}  // namespace gpulab::grade
