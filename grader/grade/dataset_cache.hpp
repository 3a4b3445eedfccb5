// Datasets generated on first use from the public seed and kept in the cache
// (the public cases too large to commit, and the timed cases of the
// performance score). A damaged cache entry is regenerated, never blamed on
// the student.
#pragma once
#include "gold/dataset_generation.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

Manifest cached_public_datasets(const LabSpec& lab, Selection which);

}  // namespace gpulab::grade
