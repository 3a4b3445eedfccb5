// report.html in a real browser: Debian's chromium renders a made-up class's
// report headless to a PNG, which must show the page (not a blank render):
// its pixels vary far more than a blank page's, and the bar charts' colours
// cover many pixels. Exit 77 (skipped) where there is no chromium.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "class_fixture.hpp"
#include "grader_test_support.hpp"
#include "png_reader.hpp"
#include "report/html_report.hpp"
#include "process/run.hpp"

namespace fs = std::filesystem;

namespace {
std::string find_browser() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    size_t start = 0;
    while (start <= dirs.size()) {
      const size_t end = dirs.find(':', start);
      const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
      if (access(candidate.c_str(), X_OK) == 0) return candidate;
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  return "";
}

struct Stats {
  double stddev = 0;
  size_t blue = 0, green = 0, dark = 0;
};

Stats measure(const gpulab_test::Image& img) {
  double sum = 0, sum2 = 0;
  Stats s;
  const size_t n = size_t(img.width) * img.height;
  for (size_t i = 0; i < n; ++i) {
    const int r = img.rgb[3 * i], g = img.rgb[3 * i + 1], b = img.rgb[3 * i + 2];
    const double lum = 0.299 * r + 0.587 * g + 0.114 * b;
    sum += lum;
    sum2 += lum * lum;
    auto near = [&](int R, int G, int B) { return std::abs(r - R) + std::abs(g - G) + std::abs(b - B) < 24; };
    s.blue += near(0x3b, 0x6e, 0xa5);   // the score histogram's bars
    s.green += near(0x3b, 0x8c, 0x5a);  // full marks, passing cases, fast submissions
    s.dark += lum < 80;                 // text
  }
  const double mean = sum / n;
  s.stddev = std::sqrt(std::max(0.0, sum2 / n - mean * mean));
  return s;
}

bool screenshot(const std::string& browser, const fs::path& page, const fs::path& png, const fs::path& profile) {
  const auto p =
      gpulab::process::run({browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--no-first-run", "--user-data-dir=" + profile.string(), "--window-size=1000,1400",
                            "--screenshot=" + png.string(), "file://" + page.string()});
  if (p.exit_code != 0 || !fs::exists(png)) {
    std::fprintf(stderr, "%s failed (exit %d):\n%s\n", browser.c_str(), p.exit_code, p.output.c_str());
    return false;
  }
  return true;
}
}  // namespace

int main() {
  const std::string browser = find_browser();
  if (browser.empty()) {
    std::puts("SKIP: no chromium on PATH (Debian: apt-get install chromium; scripts/install-deps.sh installs it)");
    return 77;
  }
  gpulab_test::TempDir d;
  setenv("HOME", d.path().c_str(), 1);  // the browser's own files stay in the temporary folder
  gpulab_test::write_file(d / "report.html", gpulab::report::html_report(gpulab_test::made_up_class(true), "test"));
  gpulab_test::write_file(d / "blank.html", "<!DOCTYPE html><html><body></body></html>");
  if (!screenshot(browser, d / "report.html", d / "report.png", d / "profile1")) return 1;
  if (!screenshot(browser, d / "blank.html", d / "blank.png", d / "profile2")) return 1;
  const gpulab_test::Image report = gpulab_test::read_png(d / "report.png");
  const gpulab_test::Image blank = gpulab_test::read_png(d / "blank.png");
  const Stats r = measure(report), b = measure(blank);
  std::printf("report: %ux%u, luminance stddev %.1f, %zu histogram-blue, %zu green, %zu dark pixels\n", report.width,
              report.height, r.stddev, r.blue, r.green, r.dark);
  std::printf("blank:  %ux%u, luminance stddev %.1f\n", blank.width, blank.height, b.stddev);
  int failures = 0;
  auto expect = [&](bool ok, const char* what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    failures += !ok;
  };
  expect(report.width == 1000 && report.height == 1400, "the screenshot has the window's size");
  expect(b.stddev < 1.0, "a blank page renders blank (the comparison is meaningful)");
  expect(r.stddev > b.stddev + 20, "the report is not blank: its pixels vary");
  expect(r.blue > 2000, "the score histogram's bars are drawn");
  expect(r.green > 500, "the green bars (full marks, passing cases) are drawn");
  expect(r.dark > 2000, "there is text");
  return failures ? 1 : 0;
}
