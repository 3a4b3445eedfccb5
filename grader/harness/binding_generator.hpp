// Generates, from a lab's lab.json, the C++ that declares the lab's host
// functions (weakly, so a missing one costs only its part) and the table the
// harness calls them through; and the contract header students read.
#pragma once
#include <string>

#include "lab/lab_spec.hpp"

namespace gpulab::harness {
std::string generate_binding(const LabSpec& lab);
std::string generate_contract_header(const LabSpec& lab);
}  // namespace gpulab::harness
