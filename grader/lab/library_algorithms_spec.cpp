// Parsing lab.json's "library_algorithms" (see library_algorithms_spec.hpp).
#include "lab/library_algorithms_spec.hpp"

#include <cctype>

#include "lab/json_reader.hpp"

namespace gpulab {

namespace {
// A pattern over symbol names: no spaces (names are compared without them: `cub::DeviceReduce::*`).
std::string pattern(const JsonReader& r) {
  const std::string p = r.text();
  for (const char c : p) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      r.fail("'" + p + "' holds a space: write a qualified name or a pattern such as \"cub::DeviceReduce::*\"");
    }
  }
  return p;
}
}  // namespace

LibraryAlgorithmsSpec parse_library_algorithms(const JsonReader& r) {
  r.expect_object(
      {"task", "allowed", "algorithms"},
      "an object such as {\"task\": \"write the reduction kernel yourself\", \"allowed\": \"...\", "
      "\"algorithms\": [{\"names\": [\"cub::DeviceReduce::*\"], \"is\": \"CUB's device-wide reduction\"}]}");
  LibraryAlgorithmsSpec spec;
  spec.task = r.at("task", "what the lab asks for, completing \"this lab asks you to ...\"").text();
  spec.allowed = r.at("allowed", "what stays allowed, in words (block- and warp-level CUB ...)").text();
  for (const JsonReader& a : r.at("algorithms", "a list of library algorithms").elements("library algorithms")) {
    a.expect_object({"names", "is"}, "an object such as {\"names\": [\"cub::DeviceReduce::*\"], \"is\": \"...\"}");
    LibraryAlgorithmSpec algorithm;
    for (const JsonReader& n : a.at("names", "a list of name patterns").elements("name patterns")) {
      algorithm.names.push_back(pattern(n));
    }
    algorithm.is = a.at("is", "what it is, completing \"calls cub::DeviceReduce::Sum, ...\"").text();
    spec.algorithms.push_back(std::move(algorithm));
  }
  return spec;
}

}  // namespace gpulab
