// write_class_reports.
#include "class_reports.hpp"

#include "files/atomic_file.hpp"
#include "gradebook_csv.hpp"
#include "html_report.hpp"
#include "leaderboard_pseudonyms.hpp"
#include "leaderboard_section.hpp"
#include "similarity_section.hpp"

namespace gpulab::report {

void write_class_reports(const std::filesystem::path& out_dir, const batch::ClassResults& c,
                         const late::ClassLateness* late, bool leaderboard_names) {
  files::write_file_atomically(out_dir / "gradebook.csv", gradebook_csv(c, late));
  ClassLeaderboard board = class_leaderboard(c);
  if (!leaderboard_names && board.ranked_students() > 0) {
    const std::string salt = leaderboard_salt(out_dir);
    use_pseudonyms(board, salt);
    files::write_file_atomically(out_dir / "leaderboard-pseudonyms.csv", pseudonyms_csv(c, salt));
  }
  files::write_file_atomically(out_dir / "report.html", html_report(c, batch::utc_now_iso8601(),
                                                                    read_similarity_summary(out_dir), late, &board));
}

}  // namespace gpulab::report
