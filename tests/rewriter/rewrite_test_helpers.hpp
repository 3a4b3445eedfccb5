// Helpers shared by the rewriter tests: rewrite without the #line header, count lines, build the
// expected text of a launch and of a kernel's registration, read a kernel's region decision.
#pragma once

#include <catch2/catch.hpp>

#include "rewriter/cuda_rewriter.hpp"
#include "rewriter/region_rewrite.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::rewriter::test {

inline const std::string header = "#line 1 \"test.cu\"\n";

// The one kernel's region decision: "name: regions|fibers|plain calls: reason".
inline std::string decision(const std::string& source) {
  const std::vector<std::string> d = region_decisions(source);
  REQUIRE(d.size() == 1);
  return d[0];
}
inline bool regions(const std::string& source) { return decision(source).find(": regions: ") != std::string::npos; }

// Options without the kernels' region forms and notes, which region tests check on their own
// (test_region_forms.cpp): the other rewrites' expected texts stay short.
inline RewriteOptions without_region_forms() {
  RewriteOptions options;
  options.region_forms = false;
  return options;
}

// The rewritten source without its `#line 1 "test.cu"` header (which is checked separately).
inline std::string rewrite_body(std::string_view source) {
  std::string out = rewrite_cuda_source(source, "test.cu", without_region_forms());
  if (out.rfind(header, 0) != 0) return "MISSING #line HEADER: " + out;
  return out.substr(header.size());
}

inline long count_newlines(std::string_view text) { return std::count(text.begin(), text.end(), '\n'); }

// 1-based line of the first occurrence of needle in text, 0 if absent.
inline long line_of(std::string_view text, std::string_view needle) {
  const std::size_t pos = text.find(needle);
  return pos == std::string_view::npos ? 0 : count_newlines(text.substr(0, pos)) + 1;
}

// Expected rewrite of a one-line launch `kernel<<<config>>>(args)`.
inline std::string launch(std::string_view kernel, std::string_view config, std::string_view args = "") {
  std::string out = "::gpulab::emu::launcher(\"" + std::string(kernel) + "\", __LINE__, " + std::string(config) +
                    ").run([=](auto... gpulab_a) { " + std::string(kernel) + "(gpulab_a...); }";
  if (!args.empty()) out += ", " + std::string(args);
  return out + ")";
}

// The registration the rewriter appends after the closing brace (line, column) of a non-template
// kernel `name` with parameters `params` (default arguments dropped).
inline std::string registration(std::string_view name, std::string_view params, int line, int column) {
  return " static const ::gpulab::emu::kernel_registration gpulab_kernel_registration_" + std::string(name) + "_L" +
         std::to_string(line) + "C" + std::to_string(column) + "(static_cast<void (*)(" + std::string(params) + ")>(&" +
         std::string(name) + "), \"" + std::string(name) + "\");";
}

}  // namespace gpulab::rewriter::test
