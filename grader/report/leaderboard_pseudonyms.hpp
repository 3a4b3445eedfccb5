// The names report.html's leaderboard shows by default: a pseudonym per
// student, "anon-" and 10 hex digits of SHA-256 over a salt and the student's
// label. The salt is random, made once per batch folder (DIR/leaderboard-salt,
// readable by its owner only) and kept, so a student keeps their pseudonym
// across re-runs of the same folder, while nobody without the salt can work
// out whose a pseudonym is from the class list. The instructor maps them back
// with DIR/leaderboard-pseudonyms.csv (student,pseudonym).
#pragma once
#include <filesystem>
#include <string>

#include "batch/class_results.hpp"

namespace gpulab::report {

std::string pseudonym(const std::string& salt, const std::string& student);
// The salt in `out_dir`/leaderboard-salt, made (32 random hex digits) when there is none.
std::string leaderboard_salt(const std::filesystem::path& out_dir);
// leaderboard-pseudonyms.csv: a row per student of the class, quoted and with CRLF lines as gradebook.csv.
std::string pseudonyms_csv(const batch::ClassResults& c, const std::string& salt);

}  // namespace gpulab::report
