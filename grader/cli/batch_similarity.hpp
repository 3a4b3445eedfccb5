// The similarity step of `gpulab batch`: run after grading (and before the class report, whose
// similarity section reads OUT/similarity/summary.json), with the default options. A failure here
// costs the similarity report only, never the grades: it is printed as a warning.
#pragma once

#include <filesystem>
#include <string>

namespace gpulab::cli {

// Writes OUT/similarity/; returns false (after printing why) when it could not.
bool write_batch_similarity(const std::string& lab, const std::filesystem::path& submissions,
                            const std::filesystem::path& out);

}  // namespace gpulab::cli
