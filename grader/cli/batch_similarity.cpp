// write_batch_similarity.
#include "batch_similarity.hpp"

#include <cstdio>
#include <exception>

#include "similarity/class_similarity.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::cli {

bool write_batch_similarity(const std::string& lab, const std::filesystem::path& submissions,
                            const std::filesystem::path& out) {
  try {
    const similarity::SimilarityOptions o;
    const similarity::FolderOutcome f = similarity::write_class_similarity(
        lab, submissions, toolchain::project_root() / "skeletons" / lab, out / "similarity", o);
    std::fprintf(stderr, "similarity: %zu pair%s at or above %.2f: %s/similarity/index.html\n", f.flagged,
                 f.flagged == 1 ? "" : "s", o.threshold, out.c_str());
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "gpulab: warning: the similarity report was not written (%s); the grades are not affected. Run "
                 "`gpulab similarity %s %s --out %s/similarity` once the cause is fixed, or skip it with "
                 "--no-similarity\n",
                 e.what(), lab.c_str(), submissions.c_str(), out.c_str());
    return false;
  }
}

}  // namespace gpulab::cli
