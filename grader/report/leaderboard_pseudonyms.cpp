// pseudonym, leaderboard_salt and pseudonyms_csv.
#include "leaderboard_pseudonyms.hpp"

#include <random>
#include <system_error>

#include <fmt/format.h>

#include "data/sha256.hpp"
#include "files/atomic_file.hpp"
#include "files/grader_error.hpp"
#include "gradebook_csv.hpp"

namespace gpulab::report {
namespace fs = std::filesystem;

std::string pseudonym(const std::string& salt, const std::string& student) {
  // The salt has a fixed length and no NUL, so no two (salt, student) pairs hash the same bytes.
  const std::string bytes = salt + '\0' + student;
  return "anon-" + sha256_hex(bytes.data(), bytes.size()).substr(0, 10);
}

std::string leaderboard_salt(const fs::path& out_dir) {
  const fs::path file = out_dir / "leaderboard-salt";
  if (fs::exists(file)) {
    std::string salt = files::read_whole_file(file);
    while (!salt.empty() && (salt.back() == '\n' || salt.back() == '\r')) salt.pop_back();
    if (salt.empty())
      throw files::GraderError(file.string() +
                               " is empty: delete it to make a new salt (the "
                               "leaderboard's pseudonyms then change)");
    return salt;
  }
  std::random_device entropy;
  std::string salt;
  for (int i = 0; i < 4; ++i) salt += fmt::format("{:08x}", entropy());
  files::write_file_atomically(file, salt + "\n");
  std::error_code ignored;  // a file system without permissions still has the salt
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write, ignored);
  return salt;
}

std::string pseudonyms_csv(const batch::ClassResults& c, const std::string& salt) {
  std::string csv = "student,pseudonym\r\n";
  for (const batch::StudentEntry& e : c.students)
    csv += csv_field(e.record.student) + "," + pseudonym(salt, e.record.student) + "\r\n";
  return csv;
}

}  // namespace gpulab::report
