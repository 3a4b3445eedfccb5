// write_batch_similarity.
#include "batch_similarity.hpp"

#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "similarity/class_similarity.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::cli {

bool write_batch_similarity(const std::string& lab, const std::filesystem::path& submissions,
                            const std::filesystem::path& out) {
  try {
    const similarity::SimilarityOptions o;
    const similarity::FolderOutcome f = similarity::write_class_similarity(
        lab, submissions, toolchain::project_root() / "skeletons" / lab, out / "similarity", o);
    fmt::print(stderr, "similarity: {} pair{} at or above {:.2f}: {}/similarity/index.html\n", f.flagged,
               f.flagged == 1 ? "" : "s", o.threshold, out.string());
    return true;
  } catch (const std::exception& e) {
    fmt::print(stderr,
               "gpulab: warning: the similarity report was not written ({}); the grades are not affected. Run "
               "`gpulab similarity {} {} --out {}/similarity` once the cause is fixed, or skip it with "
               "--no-similarity\n",
               e.what(), lab, submissions.string(), out.string());
    return false;
  }
}

}  // namespace gpulab::cli
