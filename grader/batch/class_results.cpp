// load_class_results.
#include "class_results.hpp"

#include <algorithm>
#include <stdexcept>

#include "files/atomic_file.hpp"
#include "grade/grading.hpp"

namespace gpulab::batch {
namespace fs = std::filesystem;
using nlohmann::json;

std::vector<PartColumn> part_columns(const LabSpec& lab, const std::vector<std::string>& only_parts,
                                     bool speed_scored) {
  std::vector<PartColumn> cols;
  for (const PartSpec& p : lab.parts) {
    if (!only_parts.empty() && std::find(only_parts.begin(), only_parts.end(), p.name) == only_parts.end()) continue;
    cols.push_back({p.name, grade::part_max_points(p, speed_scored)});
  }
  return cols;
}

ClassResults load_class_results(const fs::path& out_dir, const LabSpec& lab, const std::vector<std::string>& only_parts,
                                const std::vector<std::string>& students) {
  ClassResults c;
  c.lab = lab.lab;
  c.title = lab.title;
  std::vector<StudentRecord> records;
  if (students.empty()) {
    records = read_records(out_dir);
  } else {
    for (const std::string& s : students) {
      if (auto r = read_record(out_dir, s)) {
        records.push_back(*r);
      } else {
        StudentRecord missing;
        missing.student = s;
        missing.status = GradingStatus::missing;
        missing.message = "not graded yet (no record in " + (out_dir / "records").string() + ")";
        records.push_back(missing);
      }
    }
  }
  // Speed counts where the class was graded on a GPU (the emulator scores correctness only).
  const bool speed =
      std::any_of(records.begin(), records.end(), [](const StudentRecord& r) { return r.backend == "cuda"; });
  c.parts = part_columns(lab, only_parts, speed);
  for (StudentRecord& r : records) {
    StudentEntry e{std::move(r), std::nullopt};
    if (e.record.has_result()) {
      const fs::path p = result_path(out_dir, e.record.student);
      try {
        e.result = grade::read_results_file(p);
      } catch (const std::exception& ex) {
        throw std::runtime_error(p.string() + ": the result of '" + e.record.student + "' is missing or damaged (" +
                                 ex.what() + "); delete " + record_path(out_dir, e.record.student).string() +
                                 " and run the batch again to regrade it");
      }
    }
    c.students.push_back(std::move(e));
  }
  std::sort(c.students.begin(), c.students.end(),
            [](const StudentEntry& a, const StudentEntry& b) { return a.record.student < b.record.student; });
  return c;
}

}  // namespace gpulab::batch
