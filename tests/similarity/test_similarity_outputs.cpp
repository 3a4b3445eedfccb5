// The similarity folder: similarity.csv's exact format and order, the side-by-side pages (offline,
// linked regions, valid UTF-8 whatever the submission's bytes), the index, summary.json, stale pages
// removed, a class folder read as batch reads it, and the section of the batch report.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "class_fixture.hpp"
#include "files/utf8_text.hpp"
#include "grader_test_support.hpp"
#include "report/html_report.hpp"
#include "report/similarity_section.hpp"
#include "similarity/class_similarity.hpp"
#include "similarity/similarity_csv.hpp"
#include "similarity/similarity_folder.hpp"
#include "similarity/similarity_pages.hpp"

using namespace gpulab::similarity;
namespace fs = std::filesystem;

namespace {
const std::string kKernel = R"(__global__ void scan_block(const float* in, float* out, int n) {
  __shared__ float buf[256];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    const float v = t >= offset ? buf[t - offset] : 0.0f;
    __syncthreads();
    buf[t] += v;
    __syncthreads();
  }
  if (i < n) out[i] = buf[t];
}
)";
const std::string kOther = R"(__global__ void histo(const unsigned char* d, unsigned int* bins, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&bins[d[i]], 1u);
  }
}
)";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

SimilarityReport made_up_report(std::vector<Document> docs, double threshold = 0.5) {
  SimilarityReport r;
  r.lab = "scan";
  r.generated_at = "2026-01-01T00:00:00Z";
  r.options.threshold = threshold;
  r.documents = std::move(docs);
  r.comparison = compare_class(r.documents, {}, r.options);
  return r;
}
}  // namespace

TEST_CASE("similarity.csv: header a,b,similarity, one row per pair sharing code, most similar first", "[similarity]") {
  const std::string renamed = std::regex_replace(kKernel, std::regex("buf"), "tmp");
  const SimilarityReport r =
      made_up_report({{"ada", kKernel}, {"bob, jr.", renamed}, {"cy", kKernel + kOther}, {"dee", kOther}});
  const std::vector<std::string> lines = lines_of(similarity_csv(r));
  REQUIRE(lines.size() == r.comparison.pairs.size() + 1);
  CHECK(lines[0] == "a,b,similarity\r");
  CHECK(lines[1] == "ada,\"bob, jr.\",1.0000\r");  // RFC 4180 quoting of the comma
  const std::regex row(R"(^("[^"]*"|[^,]*),("[^"]*"|[^,]*),([01]\.\d{4})\r$)");
  double previous = 1.0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    std::smatch m;
    REQUIRE(std::regex_match(lines[i], m, row));
    const double s = std::stod(m[3]);
    CHECK(s > 0);
    CHECK(s <= previous);
    previous = s;
  }
  // A class of one: the header only.
  CHECK(similarity_csv(made_up_report({{"ada", kKernel}})) == "a,b,similarity\r\n");
}

TEST_CASE("pair pages: both files side by side, regions highlighted and linked both ways, offline", "[similarity]") {
  const std::string renamed = "// my own work\n" + std::regex_replace(kKernel, std::regex("offset"), "step");
  const SimilarityReport r = made_up_report({{"ada", kKernel + kOther}, {"bob", renamed}});
  REQUIRE(r.comparison.pairs.size() == 1);
  const std::vector<Region> regions =
      matching_regions(r.documents[0].source, r.documents[1].source, r.comparison.excluded, r.options);
  REQUIRE(regions.size() == 1);  // the whole kernel, one run
  CHECK(regions[0].a_first_line == 1);
  CHECK(regions[0].b_first_line == 2);
  CHECK(regions[0].a_last_line == 14);
  CHECK(regions[0].b_last_line == 15);
  const std::string page = pair_page(r, 0, regions);
  CHECK_THAT(page, Catch::Contains("id=\"a1\" href=\"#b1\""));
  CHECK_THAT(page, Catch::Contains("id=\"b1\" href=\"#a1\""));
  CHECK_THAT(page, Catch::Contains("// my own work"));
  CHECK_THAT(page, Catch::Contains("Content-Security-Policy"));
  CHECK_THAT(page, !Catch::Contains("<script"));
  CHECK_THAT(page, !Catch::Contains("://"));  // no link or load leaves the page
  CHECK_THAT(page, Catch::Contains("&lt;"));  // the code's "<" escaped
  CHECK(gpulab::files::is_valid_utf8(page));
}

TEST_CASE("non-UTF-8 bytes in a submission and its name: valid UTF-8 pages and CSV, no crash", "[similarity]") {
  const std::string latin1 = "// r\xe9sum\xe9 \xff\xfe\n" + kKernel + "int caf\xe9 = 1; /* \x80 */\n";
  const SimilarityReport r = made_up_report({{"ren\xe9", latin1}, {"ada", kKernel}});
  REQUIRE(r.comparison.pairs.size() == 1);
  const std::string csv = similarity_csv(r);
  CHECK(gpulab::files::is_valid_utf8(csv));
  CHECK_THAT(csv, Catch::Contains("ren\xef\xbf\xbd"));  // U+FFFD in place of the bad byte
  const std::string page =
      pair_page(r, 0, matching_regions(r.documents[0].source, r.documents[1].source, r.comparison.excluded, r.options));
  CHECK(gpulab::files::is_valid_utf8(page));
  CHECK(gpulab::files::is_valid_utf8(index_page(r, 1)));
}

TEST_CASE("the folder: csv, index, a page per flagged pair up to max_pages, summary, stale pages removed",
          "[similarity]") {
  gpulab_test::TempDir dir;
  fs::create_directories(dir / "pairs");
  gpulab_test::write_file(dir / "pairs" / "pair-0009.html", "old");
  SimilarityReport r = made_up_report({{"a", kKernel}, {"b", kKernel}, {"c", kKernel}, {"d", kOther}});
  r.options.common_fraction = 1.0;
  r.comparison = compare_class(r.documents, {}, r.options);
  r.options.max_pages = 2;
  const FolderOutcome f = write_similarity_folder(dir.path(), r);
  CHECK(f.flagged == 3);  // a-b, a-c, b-c
  CHECK(f.pages == 2);
  CHECK(fs::exists(dir / "pairs" / "pair-0001.html"));
  CHECK(fs::exists(dir / "pairs" / "pair-0002.html"));
  CHECK(!fs::exists(dir / "pairs" / "pair-0003.html"));
  CHECK(!fs::exists(dir / "pairs" / "pair-0009.html"));
  CHECK(gpulab_test::read_file(dir / "similarity.csv").starts_with("a,b,similarity\r\n"));
  const std::string index = gpulab_test::read_file(dir / "index.html");
  CHECK_THAT(index, Catch::Contains("href=\"pairs/pair-0001.html\""));
  CHECK_THAT(index, Catch::Contains("not proof"));
  CHECK_THAT(index, Catch::Contains("1 pairs above the threshold have no page"));
  const auto summary = nlohmann::json::parse(gpulab_test::read_file(dir / "summary.json"));
  CHECK(summary["schema"] == "gpulab-similarity/1");
  CHECK(summary["flagged"] == 3);
  CHECK(summary["top"].size() == 3);
  CHECK(summary["top"][2]["page"] == "");
}

TEST_CASE("a class of one and an empty submission give an index that says so", "[similarity]") {
  gpulab_test::TempDir dir;
  const FolderOutcome f = write_similarity_folder(dir.path(), made_up_report({{"ada", kKernel}}));
  CHECK(f.flagged == 0);
  CHECK_THAT(gpulab_test::read_file(dir / "index.html"), Catch::Contains("Fewer than two submissions"));
  gpulab_test::TempDir dir2;
  const FolderOutcome g = write_similarity_folder(dir2.path(), made_up_report({{"ada", kKernel}, {"bob", ""}}));
  CHECK(g.flagged == 0);
  CHECK(gpulab_test::read_file(dir2 / "similarity.csv") == "a,b,similarity\r\n");
  CHECK_THAT(gpulab_test::read_file(dir2 / "index.html"), Catch::Contains("No pair reaches the threshold"));
}

TEST_CASE("a class folder is read as batch reads it, the skeleton is left out", "[similarity]") {
  gpulab_test::TempDir dir;
  fs::create_directories(dir / "class" / "ada");
  fs::create_directories(dir / "class" / "bob");
  fs::create_directories(dir / "class" / "cy");
  fs::create_directories(dir / "skeletons" / "scan");
  gpulab_test::write_file(dir / "class" / "ada" / "scan.cu", kKernel + kOther);
  gpulab_test::write_file(dir / "class" / "bob" / "scan.cu", kKernel);
  gpulab_test::write_file(dir / "class" / "cy" / "notes.txt", "no code");
  gpulab_test::write_file(dir / "skeletons" / "scan" / "scan.cu", kOther);
  SimilarityOptions o;
  const SimilarityReport r = class_similarity("scan", dir / "class", dir / "skeletons" / "scan", o);
  REQUIRE(r.documents.size() == 2);
  REQUIRE(r.not_compared.size() == 1);
  CHECK_THAT(r.not_compared[0], Catch::StartsWith("cy: no .cu file"));
  CHECK(r.skeleton_files == std::vector<std::string>{"skeletons/scan/scan.cu"});
  REQUIRE(r.comparison.pairs.size() == 1);
  // kOther is the skeleton's: only the kernel counts (and the few k-grams of ada's that span the kernel's end
  // and the skeleton's start, which bob has not).
  CHECK(r.comparison.pairs[0].similarity > 0.9);
  const SimilarityReport no_skeleton = class_similarity("scan", dir / "class", dir / "nowhere", o);
  REQUIRE(!no_skeleton.warnings.empty());
  CHECK_THAT(no_skeleton.warnings.back(), Catch::Contains("no skeleton folder"));
  CHECK(no_skeleton.comparison.pairs[0].similarity < 1.0);
  CHECK_THROWS_WITH(class_similarity("scan", dir / "missing", dir / "skeletons" / "scan", o),
                    Catch::Contains("is not a folder"));
}

TEST_CASE("report.html: a similarity section from summary.json, none without it", "[similarity]") {
  gpulab_test::TempDir dir;
  SimilarityReport r = made_up_report({{"ada", kKernel}, {"<bob>", kKernel}});
  write_similarity_folder(dir / "similarity", r);
  const auto summary = gpulab::report::read_similarity_summary(dir.path());
  REQUIRE(summary.has_value());
  const std::string html = gpulab::report::html_report(gpulab_test::made_up_class(false), "now", summary);
  CHECK_THAT(html, Catch::Contains("<h2>Similar submissions</h2>"));
  CHECK_THAT(html, Catch::Contains("href=\"similarity/pairs/pair-0001.html\""));
  CHECK_THAT(html, Catch::Contains("&lt;bob&gt;"));
  CHECK_THAT(html, Catch::Contains("not proof"));
  CHECK_THAT(gpulab::report::html_report(gpulab_test::made_up_class(false), "now"),
             !Catch::Contains("Similar submissions"));
  CHECK(!gpulab::report::read_similarity_summary(dir / "elsewhere").has_value());
  gpulab_test::write_file(dir / "similarity" / "summary.json", "{ broken");
  const auto damaged = gpulab::report::read_similarity_summary(dir.path());
  REQUIRE(damaged.has_value());
  CHECK_THAT(gpulab::report::similarity_section(*damaged), Catch::Contains("could not be read"));
}

TEST_CASE("the index lists the first 1,000 flagged pairs and says where the rest are", "[similarity]") {
  std::vector<Document> docs;
  for (int i = 0; i < 50; ++i) docs.push_back({"s" + std::to_string(100 + i), kKernel});  // 1,225 identical pairs
  SimilarityReport r = made_up_report(docs);
  r.options.common_fraction = 1.0;
  r.options.common_min = 50;
  r.comparison = compare_class(r.documents, {}, r.options);
  REQUIRE(flagged_pairs(r) == 1225);
  const std::string index = index_page(r, 200);
  std::size_t rows = 0;
  for (std::size_t at = index.find("<tr><td class=\"n\">"); at != std::string::npos;
       at = index.find("<tr><td class=\"n\">", at + 1))
    ++rows;
  CHECK(rows == 1000);
  CHECK_THAT(index, Catch::Contains("1025 pairs above the threshold have no page"));
  CHECK_THAT(index, Catch::Contains("the 225 after the first 1000 are listed there only"));
}

TEST_CASE("a pair of huge repetitive files is compared and paged in reasonable time", "[similarity]") {
  std::string a, b;
  for (int i = 0; i < 40000; ++i) a += "x = y + 1;\n";  // 240,000 tokens of one line over and over
  for (int i = 0; i < 40000; ++i) b += "p = q + 2;\n";
  const SimilarityReport r = made_up_report({{"ada", a}, {"bob", b}});
  REQUIRE(r.comparison.pairs.size() == 1);
  CHECK(r.comparison.pairs[0].similarity == Approx(1.0));
  const std::vector<Region> regions = matching_regions(a, b, r.comparison.excluded, r.options);
  REQUIRE(!regions.empty());
  CHECK(regions[0].tokens == 240000);  // the whole file, found from the first seed
}
