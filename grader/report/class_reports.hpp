// Writing a batch folder's class-level outputs, gradebook.csv and report.html,
// both atomically, from the records and results in the folder (and, for the
// report's similarity section, similarity/summary.json when it is there).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "batch/class_results.hpp"

namespace gpulab::report {

void write_class_reports(const std::filesystem::path& out_dir, const batch::ClassResults& c);

}  // namespace gpulab::report
