// merge_batches.
#include "merge_batches.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "files/atomic_file.hpp"

namespace gpulab::batch {
namespace fs = std::filesystem;
using nlohmann::json;

fs::path plan_path(const fs::path& out_dir) { return out_dir / "slurm" / "plan.json"; }

MergeOutcome merge_batches(const std::vector<fs::path>& dirs, const fs::path& out) {
  MergeOutcome m;
  struct Source {
    StudentRecord record;
    fs::path dir;
  };
  std::map<std::string, Source> chosen;
  std::set<std::string> expected;
  for (const fs::path& dir : dirs) {
    if (!fs::is_directory(dir)) throw std::runtime_error("'" + dir.string() + "' is not a folder of batch results");
    const bool has_plan = fs::exists(plan_path(dir));
    if (!fs::is_directory(dir / "records") && !has_plan) {
      throw std::runtime_error("'" + dir.string() +
                               "' holds no batch results (no records/ folder): give the --out "
                               "folder of `gpulab batch`");
    }
    if (has_plan) {
      const json plan = json::parse(files::read_whole_file(plan_path(dir)));
      for (const json& s : plan.value("students", json::array())) expected.insert(s.get<std::string>());
      const std::string lab = plan.value("lab", "");
      if (!m.lab.empty() && !lab.empty() && lab != m.lab) {
        throw std::runtime_error("cannot merge lab '" + lab + "' (" + dir.string() + ") with lab '" + m.lab + "'");
      }
      if (!lab.empty()) m.lab = lab;
    }
    for (StudentRecord& r : read_records(dir)) {
      if (!m.lab.empty() && r.lab != m.lab) {
        throw std::runtime_error(record_path(dir, r.student).string() + " is lab '" + r.lab + "', not '" + m.lab +
                                 "': merge the results of one lab at a time");
      }
      m.lab = r.lab;
      auto it = chosen.find(r.student);
      if (it == chosen.end()) {
        chosen.emplace(r.student, Source{r, dir});
        continue;
      }
      if (it->second.record.key != r.key) {
        throw std::runtime_error("student '" + r.student + "' was graded differently in " + it->second.dir.string() +
                                 " and " + dir.string() +
                                 " (another submission or other options): remove the "
                                 "result you do not want from one of them");
      }
      if (r.graded_at > it->second.record.graded_at) it->second = Source{r, dir};
    }
  }
  fs::create_directories(out / "records");
  for (const auto& [student, src] : chosen) {
    m.students.push_back(student);
    if (fs::equivalent(src.dir, out)) continue;
    if (src.record.has_result()) {
      files::write_file_atomically(result_path(out, student), files::read_whole_file(result_path(src.dir, student)));
    }
    files::write_file_atomically(record_path(out, student), files::read_whole_file(record_path(src.dir, student)));
    ++m.copied;
  }
  for (const std::string& s : expected) {
    if (!chosen.count(s)) {
      m.missing.push_back(s);
      m.students.push_back(s);
    }
  }
  std::sort(m.students.begin(), m.students.end());
  if (m.lab.empty()) throw std::runtime_error("no graded students in the folders given");
  return m;
}

}  // namespace gpulab::batch
