// Measured quality on the corpus of corpus.json: per lab, every disguised copy must score higher
// against its original than any two independent solutions score against each other, with the lab's
// skeleton left out and the default options. The separation (lowest copy score minus highest
// independent score) is printed per lab; docs/batch-grading.md reports it.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "grader_test_support.hpp"
#include "similarity/class_comparison.hpp"

using namespace gpulab::similarity;
namespace fs = std::filesystem;

namespace {
const fs::path kRoot = GPULAB_TEST_SOURCE_DIR;

struct LabScores {
  double min_copy = 2, max_independent = -1;
  std::string weakest_copy, closest_independents;
};

LabScores score_lab(const std::string& lab, const nlohmann::json& spec, const SimilarityOptions& o) {
  std::vector<Document> docs;
  std::map<std::string, std::uint32_t> index;
  auto add = [&](const std::string& path) {
    const std::string text = gpulab_test::read_file(kRoot / path);
    REQUIRE(!text.empty());
    index[path] = static_cast<std::uint32_t>(docs.size());
    docs.push_back({path, text});
  };
  for (const std::string p : spec["independent"]) add(p);
  for (const std::string p : spec["related"]) add(p);
  for (const auto& [copy, original] : spec["copies"].items()) add(copy);
  std::vector<std::string> skeleton;
  for (const auto& e : fs::directory_iterator(kRoot / "skeletons" / lab))
    skeleton.push_back(gpulab_test::read_file(e.path()));
  REQUIRE(!skeleton.empty());

  const ClassComparison c = compare_class(docs, skeleton, o);
  auto score = [&](std::uint32_t a, std::uint32_t b) {
    for (const PairScore& p : c.pairs)
      if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return p.similarity;
    return 0.0;
  };
  LabScores s;
  const std::vector<std::string> independent = spec["independent"];
  for (std::size_t i = 0; i < independent.size(); ++i)
    for (std::size_t j = i + 1; j < independent.size(); ++j) {
      const double x = score(index[independent[i]], index[independent[j]]);
      if (x > s.max_independent) {
        s.max_independent = x;
        s.closest_independents = independent[i] + " ~ " + independent[j];
      }
    }
  for (const auto& [copy, original] : spec["copies"].items()) {
    const double x = score(index[copy], index[original.get<std::string>()]);
    if (x < s.min_copy) {
      s.min_copy = x;
      s.weakest_copy = copy;
    }
  }
  return s;
}
}  // namespace

TEST_CASE("every disguised copy ranks above every pair of independent solutions, per lab", "[similarity][quality]") {
  const auto corpus = nlohmann::json::parse(gpulab_test::read_file(kRoot / "tests/similarity/corpus.json"));
  const SimilarityOptions o;
  for (const auto& [lab, spec] : corpus["labs"].items()) {
    const LabScores s = score_lab(lab, spec, o);
    std::printf("similarity corpus %-12s lowest copy %.3f (%s), highest independent pair %.3f (%s): separation %+.3f\n",
                lab.c_str(), s.min_copy, s.weakest_copy.c_str(), s.max_independent, s.closest_independents.c_str(),
                s.min_copy - s.max_independent);
    INFO(lab << ": weakest copy " << s.weakest_copy << " " << s.min_copy << ", closest independent pair "
             << s.closest_independents << " " << s.max_independent);
    CHECK(s.min_copy > s.max_independent);
  }
}
