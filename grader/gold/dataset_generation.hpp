// Generating a lab's dataset cases: the inputs from lab.json's value generators, the expected
// outputs (and the scales of float_bound checks) from the lab's gold functions, every file
// written with its entry in the manifest (data/dataset.hpp reads and verifies it).
#pragma once
#include <filesystem>
#include <string>

#include "data/dataset.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab {

// public_small: committed under datasets/<lab>; public_large: generated on first use;
// all: every family (hidden seeds); performance: the timed and recheck cases of each part.
enum class Selection { public_small, public_large, all, performance };

// Writes every selected case of every part (or only `only_part`) under `out` with a manifest.json.
Manifest generate_datasets(const LabSpec& lab, unsigned long long seed, bool hidden, Selection which,
                           const std::filesystem::path& out, const std::string& only_part = "");

}  // namespace gpulab
