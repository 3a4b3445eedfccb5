// report.html's "Late submissions" section: the course's policy in words, the
// warnings about submission times, and a table of the students who were late
// (or whose time is unknown), with their time, its source, days late, days
// charged, penalty and final score.
#pragma once
#include <string>

#include "late/class_lateness.hpp"

namespace gpulab::report {

std::string late_section(const late::ClassLateness& l);

}  // namespace gpulab::report
