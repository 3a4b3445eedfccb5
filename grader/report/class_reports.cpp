// write_class_reports.
#include "class_reports.hpp"

#include "files/atomic_file.hpp"
#include "gradebook_csv.hpp"
#include "html_report.hpp"
#include "similarity_section.hpp"

namespace gpulab::report {

void write_class_reports(const std::filesystem::path& out_dir, const batch::ClassResults& c,
                         const late::ClassLateness* late) {
  files::write_file_atomically(out_dir / "gradebook.csv", gradebook_csv(c, late));
  files::write_file_atomically(out_dir / "report.html",
                               html_report(c, batch::utc_now_iso8601(), read_similarity_summary(out_dir), late));
}

}  // namespace gpulab::report
