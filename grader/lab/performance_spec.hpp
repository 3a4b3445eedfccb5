// lab.json's "performance" object (the struct lives in lab_spec.hpp, next to
// the part it belongs to): parsing, and the amount of work of the timed case.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "lab/json_reader.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab {

// `r` is the part's "performance" object; `part` is read up to its datasets.
PerformanceSpec parse_performance(const JsonReader& r, const PartSpec& part);
// Bytes moved (inputs read once + outputs written once) or floating-point operations.
double performance_work(const PerformanceSpec& perf, const PartSpec& part);
// Bytes moved by the timed case, whatever the part's work is measured in.
double performance_bytes(const PerformanceSpec& perf, const PartSpec& part);

}  // namespace gpulab
