// StudentRecord <-> JSON, and where records and results live in a batch folder.
#include "student_record.hpp"

#include <algorithm>
#include <ctime>
#include <stdexcept>

#include "files/atomic_file.hpp"

namespace gpulab::batch {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
// A word of one of the record's enumerations; another word is an error naming the key.
template <class E> E known_word(const json& v, const std::string& key) {
  const E e = v.get<E>();
  if (json(e) != v) throw std::runtime_error(key + ": unknown value " + v.dump());
  return e;
}
}  // namespace

json record_to_json(const StudentRecord& r) {
  json people = json::array();
  for (const Submitter& s : r.submitters) people.push_back({{"name", s.name}, {"email", s.email}, {"sid", s.sid}});
  json classes = json::array();
  for (const auto& [kind, example] : r.failure_classes) classes.push_back({{"class", kind}, {"example", example}});
  return {{"schema", "gpulab-batch-record/1"},
          {"student", r.student},
          {"key", r.key},
          {"status", r.status},
          {"message", r.message},
          {"failure_class", r.failure_class == grade::FailureKind::none ? json("") : json(r.failure_class)},
          {"failure_example", r.failure_example},
          {"failure_classes", classes},
          {"source", r.source},
          {"submission_id", r.submission_id},
          {"submitters", people},
          {"content_hash", r.content_hash},
          {"created_at", r.created_at},
          {"newest_file_time", r.newest_file_time},
          {"lab", r.lab},
          {"lab_version", r.lab_version},
          {"backend", r.backend},
          {"grader_version", r.grader_version},
          {"score", r.score},
          {"max_score", r.max_score},
          {"timing",
           {{"compile_s", r.timing.compile_s},
            {"run_s", r.timing.run_s},
            {"compare_s", r.timing.compare_s},
            {"report_s", r.timing.report_s},
            {"total_s", r.timing.total_s}}},
          {"graded_at", r.graded_at}};
}

StudentRecord record_from_json(const json& j, const std::string& origin) {
  try {
    if (j.value("schema", "") != "gpulab-batch-record/1") {
      throw std::runtime_error("not a gpulab batch record (schema '" + j.value("schema", "") + "')");
    }
    StudentRecord r;
    r.student = j.at("student").get<std::string>();
    r.key = j.value("key", "");
    r.status = known_word<GradingStatus>(j.at("status"), "status");
    if (r.status == GradingStatus::missing)
      throw std::runtime_error("status: \"missing\" is never written to a record");
    r.message = j.value("message", "");
    const json no_class = "";
    const json& cls = j.contains("failure_class") ? j.at("failure_class") : no_class;
    r.failure_class = cls == no_class ? grade::FailureKind::none : known_word<grade::FailureKind>(cls, "failure_class");
    r.failure_example = j.value("failure_example", "");
    for (const json& c : j.value("failure_classes", json::array()))
      r.failure_classes.push_back(
          {known_word<grade::FailureKind>(c.at("class"), "failure_classes[].class"), c.value("example", "")});
    r.source = j.value("source", "");
    r.submission_id = j.value("submission_id", "");
    for (const json& p : j.value("submitters", json::array()))
      r.submitters.push_back({p.value("name", ""), p.value("email", ""), p.value("sid", "")});
    r.content_hash = j.value("content_hash", "");
    r.created_at = j.value("created_at", "");
    r.newest_file_time = j.value("newest_file_time", "");
    r.lab = j.value("lab", "");
    r.lab_version = j.value("lab_version", "");
    r.backend = j.value("backend", "");
    r.grader_version = j.value("grader_version", "");
    r.score = j.value("score", 0.0);
    r.max_score = j.value("max_score", 0.0);
    const json t = j.value("timing", json::object());
    r.timing = {t.value("compile_s", 0.0), t.value("run_s", 0.0), t.value("compare_s", 0.0), t.value("report_s", 0.0),
                t.value("total_s", 0.0)};
    r.graded_at = j.value("graded_at", "");
    return r;
  } catch (const json::exception& e) {
    throw std::runtime_error(origin + ": damaged batch record (" + e.what() +
                             "); delete it to grade that student again");
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(origin + ": " + e.what());
  }
}

fs::path result_path(const fs::path& out_dir, const std::string& student) { return out_dir / (student + ".json"); }
fs::path record_path(const fs::path& out_dir, const std::string& student) {
  return out_dir / "records" / (student + ".json");
}

std::optional<StudentRecord> read_record(const fs::path& out_dir, const std::string& student) {
  const fs::path p = record_path(out_dir, student);
  if (!fs::exists(p)) return std::nullopt;
  try {
    return record_from_json(json::parse(files::read_whole_file(p)), p.string());
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable: graded again, which rewrites it
  }
}

std::vector<StudentRecord> read_records(const fs::path& out_dir) {
  std::vector<StudentRecord> out;
  const fs::path dir = out_dir / "records";
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json" || !e.is_regular_file()) continue;
    json j;
    try {
      j = json::parse(files::read_whole_file(e.path()));
    } catch (const json::exception& ex) {
      throw std::runtime_error(e.path().string() + ": damaged batch record (" + ex.what() +
                               "); delete it and grade that student again");
    }
    out.push_back(record_from_json(j, e.path().string()));
  }
  std::sort(out.begin(), out.end(),
            [](const StudentRecord& a, const StudentRecord& b) { return a.student < b.student; });
  return out;
}

std::string utc_now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace gpulab::batch
