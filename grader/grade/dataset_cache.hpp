// Datasets generated on first use and kept in the cache: from the public seed
// (the public cases too large to commit, and the timed cases of the
// performance score) and from the hidden seed (every hidden case). A damaged
// cache entry is regenerated, never blamed on the student. A folder's files are
// hashed against its manifest once, then trusted while they are unchanged
// (data/verified_stamp.hpp).
#pragma once
#include "gold/dataset_generation.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

// `generated`, when given, says whether the cases had to be generated (not in the cache yet).
Manifest cached_public_datasets(const LabSpec& lab, Selection which, bool* generated = nullptr);

// Every case of the lab from `seed` (derived from the hidden secret and the lab, never the secret
// itself), as hidden cases. The folder is private to the grader's user (mode 0700, as a temporary
// folder's) and named by a hash of the seed and of lab.json, so a new secret or an edited lab.json
// makes new cases; the sandbox never sees the cache (docs/security.md).
Manifest cached_hidden_datasets(const LabSpec& lab, unsigned long long seed, bool* generated = nullptr);

}  // namespace gpulab::grade
