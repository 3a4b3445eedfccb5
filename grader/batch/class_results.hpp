// A graded class as the gradebook and the report read it: each student's
// record and, when the submission was graded, its "gpulab-results/1" result.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "grade/results_model.hpp"
#include "lab/lab_spec.hpp"
#include "student_record.hpp"

namespace gpulab::batch {

struct PartColumn {
  std::string name;
  double points = 0;
};

struct StudentEntry {
  StudentRecord record;
  std::optional<grade::ResultsRecord> result;  // absent for no_submission, grader_error, missing
};

struct ClassResults {
  std::string lab;
  std::string title;
  std::vector<PartColumn> parts;       // in lab.json's order
  std::vector<StudentEntry> students;  // sorted by student
};

// The parts of `lab` (all, or `only_parts`), in lab.json's order, with their points (without the
// speed points where speed was not scored, as on the emulator).
std::vector<PartColumn> part_columns(const LabSpec& lab, const std::vector<std::string>& only_parts,
                                     bool speed_scored = true);
// Reads the record and result of each student in `students` from `out_dir` (all records when empty).
// A record whose result file is missing, damaged, or lacks a key of gpulab-results/1 becomes an error
// naming the file (and the key).
ClassResults load_class_results(const std::filesystem::path& out_dir, const LabSpec& lab,
                                const std::vector<std::string>& only_parts,
                                const std::vector<std::string>& students = {});

}  // namespace gpulab::batch
