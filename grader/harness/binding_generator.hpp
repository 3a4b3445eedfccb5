// Generates, from a lab's lab.json, the C++ that declares the lab's host
// functions (weakly, so a missing one costs only its part) and the table the
// harness calls them through; and the contract header students read.
#pragma once
#include <string>

#include "lab/lab_spec.hpp"

namespace gpulab::harness {
std::string generate_binding(const LabSpec& lab);
// `fn(static_cast<const int*>(c.pointer(0)), ...)`: the part's function called with a Call named `c`.
std::string call_from_binding(const PartSpec& part);
// A C++ string literal of `s`.
std::string c_string(const std::string& s);
std::string generate_contract_header(const LabSpec& lab);
}  // namespace gpulab::harness
