// report.html's "Similar submissions" section, from OUT/similarity/summary.json (written by the
// similarity step of `gpulab batch` or by `gpulab similarity ... --out OUT/similarity`): the flagged
// pairs, most similar first, linked to their side-by-side pages, and a reminder that a score is
// evidence to review, not proof.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace gpulab::report {

// The summary in `out_dir`/similarity/summary.json; nullopt when there is none or it cannot be read
// (a damaged summary is skipped with a note in the section rather than failing the report).
std::optional<nlohmann::json> read_similarity_summary(const std::filesystem::path& out_dir);

// The section's HTML; links are relative to report.html (similarity/...).
std::string similarity_section(const nlohmann::json& summary);

}  // namespace gpulab::report
