// compare_class: skeleton code and the class's common code are left out, only pairs sharing a
// fingerprint are listed, scores are in [0, 1] and ranked; an empty submission and a class of one work.
#include <catch2/catch.hpp>

#include <random>

#include "similarity/class_comparison.hpp"

using namespace gpulab::similarity;

namespace {
// A made-up kernel body of `statements` statements, different for each seed (operators and CUDA names vary,
// so the token streams differ even though every name folds to one symbol). Two seeds share a few short
// runs by chance (measured: similarity up to 0.14), so "unrelated" below means under 0.2.
std::string own_code(unsigned seed, int statements = 40) {
  static const char* ops[] = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"};
  static const char* calls[] = {"atomicAdd", "atomicMax", "atomicMin", "__syncthreads", "min", "max", "sqrtf"};
  static const char* idx[] = {"threadIdx.x", "blockIdx.x", "blockDim.x", "gridDim.x", "threadIdx.y"};
  std::mt19937 rng(seed);
  std::string s = "__global__ void k" + std::to_string(seed) + "(float* p, int n) {\n";
  for (int i = 0; i < statements; ++i) {
    switch (rng() % 3) {
      case 0: s += "  v = v " + std::string(ops[rng() % 10]) + " " + idx[rng() % 5] + ";\n"; break;
      case 1: s += "  " + std::string(calls[rng() % 7]) + "(p, v " + ops[rng() % 10] + " 2);\n"; break;
      default: s += "  if (v " + std::string(ops[rng() % 10]) + " n) { p[v] = " + idx[rng() % 5] + "; }\n"; break;
    }
  }
  return s + "}\n";
}

double score(const ClassComparison& c, std::uint32_t a, std::uint32_t b) {
  for (const PairScore& p : c.pairs)
    if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return p.similarity;
  return 0;
}
}  // namespace

TEST_CASE("identical submissions score 1, unrelated ones are not listed", "[similarity]") {
  const std::vector<Document> docs{{"ada", own_code(1)}, {"bob", own_code(1)}, {"cy", own_code(2)}};
  const ClassComparison c = compare_class(docs, {}, SimilarityOptions{});
  CHECK(score(c, 0, 1) == Approx(1.0));
  CHECK(score(c, 0, 2) < 0.2);
  for (const PairScore& p : c.pairs) {
    CHECK(p.a < p.b);
    CHECK(p.similarity > 0);
    CHECK(p.similarity <= 1.0);
  }
}

TEST_CASE("the skeleton's code is left out", "[similarity]") {
  const std::string skeleton = own_code(100, 60);
  // Two students who kept the whole skeleton and each wrote their own kernel beside it.
  const std::vector<Document> docs{{"ada", skeleton + own_code(1)}, {"bob", skeleton + own_code(2)}};
  const ClassComparison without = compare_class(docs, {}, SimilarityOptions{});
  CHECK(score(without, 0, 1) > 0.5);  // the skeleton alone makes them look alike
  const ClassComparison with = compare_class(docs, {skeleton}, SimilarityOptions{});
  CHECK(score(with, 0, 1) < 0.2);
  CHECK(with.skeleton_kgrams > 0);
  CHECK(with.skeleton_excluded > 0);
  // A real copy stays visible next to the skeleton.
  const std::vector<Document> copied{{"ada", skeleton + own_code(1)}, {"bob", skeleton + own_code(1)}};
  CHECK(score(compare_class(copied, {skeleton}, SimilarityOptions{}), 0, 1) == Approx(1.0));
}

TEST_CASE("fingerprints held by more than the set fraction of the class are left out", "[similarity]") {
  const std::string idiom = own_code(500, 30);  // something most of the class writes
  std::vector<Document> docs;
  for (unsigned i = 0; i < 10; ++i) docs.push_back({"s" + std::to_string(i), idiom + own_code(i + 1)});
  SimilarityOptions o;
  o.common_fraction = 0.5;  // held by more than 5 of 10: common
  o.common_min = 2;
  const ClassComparison c = compare_class(docs, {}, o);
  CHECK(c.common_limit == 5);
  CHECK(c.common_excluded > 0);
  for (const PairScore& p : c.pairs) CHECK(p.similarity < 0.2);
  o.common_fraction = 1.0;  // keep everything: the idiom makes every pair alike
  const ClassComparison all = compare_class(docs, {}, o);
  CHECK(all.common_excluded == 0);
  CHECK(all.pairs.size() == 45);
  CHECK(score(all, 0, 9) > 0.3);
}

TEST_CASE("a group of up to common_min submissions is never hidden as common, however small the fraction",
          "[similarity]") {
  SimilarityOptions o;
  o.common_fraction = 0.01;
  std::vector<Document> docs;
  for (int i = 0; i < 10; ++i) docs.push_back({"s" + std::to_string(i), own_code(3)});
  docs.push_back({"empty", ""});
  const ClassComparison c = compare_class(docs, {}, o);
  CHECK(c.common_limit == 10);
  CHECK(c.common_excluded == 0);
  CHECK(score(c, 0, 9) == Approx(1.0));
  docs.push_back({"s10", own_code(3)});  // 11 holders: now the class's common code
  const ClassComparison d = compare_class(docs, {}, o);
  CHECK(d.common_excluded > 0);
  CHECK(score(d, 0, 9) == 0);
}

TEST_CASE("pairs are ranked by similarity, ties by name", "[similarity]") {
  const std::string a = own_code(1), b = own_code(2);
  const std::vector<Document> docs{{"d", a}, {"c", a + b}, {"b", a}, {"a", a + own_code(3)}};
  const ClassComparison c = compare_class(docs, {}, SimilarityOptions{});
  REQUIRE(c.pairs.size() >= 3);
  for (std::size_t i = 1; i < c.pairs.size(); ++i) CHECK(c.pairs[i - 1].similarity >= c.pairs[i].similarity);
  CHECK(c.pairs[0].a == 0);  // d and b are identical: first
  CHECK(c.pairs[0].b == 2);
  CHECK(c.pairs[0].similarity == Approx(1.0));
  // (d, c) and (c, b) tie: the pair whose first name sorts first ("c") comes first.
  std::size_t dc = 0, cb = 0;
  for (std::size_t i = 0; i < c.pairs.size(); ++i) {
    if (c.pairs[i].a == 0 && c.pairs[i].b == 1) dc = i;
    if (c.pairs[i].a == 1 && c.pairs[i].b == 2) cb = i;
  }
  CHECK(c.pairs[dc].similarity == c.pairs[cb].similarity);
  CHECK(cb < dc);
}

TEST_CASE("an empty submission, a comment-only one and a class of one", "[similarity]") {
  const std::vector<Document> docs{{"empty", ""}, {"comments", "// nothing yet\n/* TODO */\n"}, {"ada", own_code(1)}};
  const ClassComparison c = compare_class(docs, {}, SimilarityOptions{});
  CHECK(c.fingerprints[0] == 0);
  CHECK(c.fingerprints[1] == 0);
  CHECK(c.pairs.empty());
  const ClassComparison one = compare_class({{"ada", own_code(1)}}, {}, SimilarityOptions{});
  CHECK(one.pairs.empty());
  CHECK(one.fingerprints.size() == 1);
  CHECK(compare_class({}, {}, SimilarityOptions{}).pairs.empty());
}

TEST_CASE("bad options are refused with the option's name", "[similarity]") {
  SimilarityOptions o;
  o.threshold = 1.5;
  CHECK_THROWS_WITH(compare_class({}, {}, o), Catch::Contains("--threshold"));
  o = SimilarityOptions{};
  o.common_fraction = 0;
  CHECK_THROWS_WITH(compare_class({}, {}, o), Catch::Contains("--common-fraction"));
  o = SimilarityOptions{};
  o.k = 0;
  CHECK_THROWS_WITH(compare_class({}, {}, o), Catch::Contains("--kgram"));
}
