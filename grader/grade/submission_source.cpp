// Implementation of submission_source.hpp.
#include "grade/submission_source.hpp"

#include <algorithm>

#include "files/utf8_text.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

bool ignored_submission_name(const std::string& name) {
  return name.empty() || name[0] == '.' || name == "__MACOSX" || name == "submission_metadata.yml";
}

std::vector<fs::path> submission_files(const fs::path& folder) {
  std::vector<fs::path> files;
  if (fs::is_regular_file(folder)) return {folder.filename()};
  for (auto it = fs::recursive_directory_iterator(folder); it != fs::recursive_directory_iterator(); ++it) {
    if (ignored_submission_name(it->path().filename().string())) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    // Symbolic links are not followed: a submission is what is inside its folder.
    if (it->is_regular_file() && !it->is_symlink()) files.push_back(fs::relative(it->path(), folder));
  }
  std::sort(files.begin(), files.end());
  return files;
}

SubmissionSource choose_submission_source(const fs::path& folder, const std::vector<fs::path>& files,
                                          const std::string& source_name) {
  std::vector<fs::path> cu, named;
  for (const fs::path& f : files) {
    if (f.extension() != ".cu") continue;
    cu.push_back(f);
    if (f.filename() == source_name) named.push_back(f);
  }
  auto list = [](const std::vector<fs::path>& v) {
    std::string text;
    for (const fs::path& f : v) text += (text.empty() ? "" : ", ") + files::escaped_name(f.generic_string());
    return text;
  };
  SubmissionSource s;
  if (named.size() == 1) {
    s.file = folder / named.front();
  } else if (named.size() > 1) {
    s.problem = "several files are named " + source_name + " (" + list(named) +
                "): it is not clear which one to grade, so none was; hand in only the one to grade (delete or "
                "rename the others, e.g. backups)";
  } else if (cu.size() == 1) {
    s.file = folder / cu.front();
  } else if (cu.empty()) {
    s.problem = "no .cu file was handed in (expected " + source_name + ")";
  } else {
    s.problem = "several .cu files (" + list(cu) + ") and none named " + source_name + ": rename the one to grade to " +
                source_name;
  }
  return s;
}

}  // namespace gpulab::grade
