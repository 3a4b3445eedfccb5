// Tests of output comparison (grader/grade/compare): exact and float_bound
// checks at their boundaries, and the exact feedback sentences (first bad
// index, expected vs got, counts, poison and last-block hints).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "grade/compare.hpp"

using gpulab::CheckSpec;
using gpulab::NdArray;
using gpulab::grade::compare_output;

namespace {
const CheckSpec kExact{"exact", 0};
CheckSpec bound(double factor) { return CheckSpec{"float_bound", factor}; }

std::vector<int32_t> iota_ints(size_t n) {
  std::vector<int32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int32_t>(i) * 3 + 1;  // never -1, the poison value
  return v;
}
}  // namespace

TEST_CASE("compare: identical integer outputs pass", "[compare]") {
  const NdArray e = NdArray::from(iota_ints(100));
  const auto r = compare_output(kExact, "out", e, e, nullptr);
  CHECK(r.passed);
  CHECK(r.bad == 0);
  CHECK(r.total == 100);
  CHECK(r.message.empty());
}

TEST_CASE("compare: one wrong integer gives the exact sentence", "[compare]") {
  std::vector<int32_t> want = {0, 1, 2, 4, 4, 5, 6, 7};
  std::vector<int32_t> got = want;
  got[3] = 5;
  const auto r = compare_output(kExact, "out", NdArray::from(want), NdArray::from(got), nullptr);
  CHECK_FALSE(r.passed);
  CHECK(r.bad == 1);
  CHECK(r.total == 8);
  CHECK(r.first_bad == 3);
  CHECK(r.message == "out[3] = 5, expected 4; 1 of 8 wrong");
}

TEST_CASE("compare: unsigned and byte outputs print as integers", "[compare]") {
  const auto r = compare_output(kExact, "hist", NdArray::from(std::vector<uint32_t>{7, 4000000000u}),
                                NdArray::from(std::vector<uint32_t>{7, 4000000001u}), nullptr);
  CHECK(r.message == "hist[1] = 4000000001, expected 4000000000; 1 of 2 wrong");
  const auto b = compare_output(kExact, "s", NdArray::from(std::vector<uint8_t>{200, 1, 2}),
                                NdArray::from(std::vector<uint8_t>{200, 9, 2}), nullptr);
  CHECK(b.message == "s[1] = 9, expected 1; 1 of 3 wrong");
}

TEST_CASE("compare: untouched poison is reported as never written", "[compare]") {
  SECTION("int32, every element still -1") {
    const auto r =
        compare_output(kExact, "out", NdArray::from(iota_ints(8)), NdArray::from(std::vector<int32_t>(8, -1)), nullptr);
    CHECK(r.bad == 8);
    CHECK(r.message ==
          "out[0] = -1, expected 1; 8 of 8 wrong; every wrong element holds the poison value the grader wrote "
          "before the call (NaN / all bits set): those elements were never written (or were computed from "
          "uninitialised shared memory, which the emulator also fills with that pattern)");
  }
  SECTION("float32, every element still NaN") {
    const std::vector<float> nan(4, std::numeric_limits<float>::quiet_NaN());
    const auto r =
        compare_output(bound(4), "c", NdArray::from(std::vector<float>{1, 2, 3, 4}), NdArray::from(nan), nullptr);
    CHECK_THAT(r.message, Catch::StartsWith("c[0] = NaN, expected 1; 4 of 4 wrong; "));
    CHECK_THAT(r.message, Catch::Contains("never written"));
  }
  SECTION("uint32, some elements still all bits set") {
    std::vector<uint32_t> want = {1, 2, 3, 4, 5};
    std::vector<uint32_t> got = {1, 0xFFFFFFFFu, 9, 0xFFFFFFFFu, 5};
    const auto r = compare_output(kExact, "h", NdArray::from(want), NdArray::from(got), nullptr);
    CHECK(r.message ==
          "h[1] = 4294967295, expected 2; 3 of 5 wrong; 2 of them were never written (still the poison "
          "value)");
  }
  SECTION("every element wrong but written") {
    const auto r = compare_output(kExact, "out", NdArray::from(std::vector<int32_t>{1, 2, 3}),
                                  NdArray::from(std::vector<int32_t>{0, 0, 0}), nullptr);
    CHECK(r.message == "out[0] = 0, expected 1; 3 of 3 wrong; every element is wrong");
  }
}

TEST_CASE("compare: only the last, partial block wrong gives the bounds hint", "[compare]") {
  // n = 1000 with blocks of 32: 31 full blocks, then 992..999 in a partial block that was never written.
  std::vector<int32_t> want = iota_ints(1000);
  std::vector<int32_t> got = want;
  for (size_t i = 992; i < 1000; ++i) got[i] = -1;
  const auto r = compare_output(kExact, "out", NdArray::from(want), NdArray::from(got), nullptr);
  CHECK(r.bad == 8);
  CHECK(r.first_bad == 992);
  CHECK_THAT(r.message, Catch::StartsWith("out[992] = -1, expected 2977; 8 of 1000 wrong; "));
  CHECK_THAT(r.message, Catch::Contains("never written"));
  CHECK_THAT(r.message, Catch::Contains("past the last full block of"));
  CHECK_THAT(r.message, Catch::Contains("check your bounds"));
}

TEST_CASE("compare: no bounds hint when the size is a multiple of every block size or the error is early",
          "[compare]") {
  std::vector<int32_t> want = iota_ints(1024);
  std::vector<int32_t> got = want;
  for (size_t i = 1000; i < 1024; ++i) got[i] = 0;
  CHECK_THAT(compare_output(kExact, "out", NdArray::from(want), NdArray::from(got), nullptr).message,
             !Catch::Contains("full block"));

  std::vector<int32_t> w2 = iota_ints(1000);
  std::vector<int32_t> g2 = w2;
  g2[10] = 0;
  CHECK_THAT(compare_output(kExact, "out", NdArray::from(w2), NdArray::from(g2), nullptr).message,
             !Catch::Contains("full block"));
}

// For n = 1000 and wrong elements exactly 992..999, the pattern is that of a
// launch that skipped the partial last block of 32 threads (992 = 31 * 32):
// the hint names the block size whose boundary the wrong elements start at.
TEST_CASE("compare: the bounds hint names the block size the wrong tail starts at", "[compare]") {
  std::vector<int32_t> want = iota_ints(1000);
  std::vector<int32_t> got = want;
  for (size_t i = 992; i < 1000; ++i) got[i] = -1;
  const auto r = compare_output(kExact, "out", NdArray::from(want), NdArray::from(got), nullptr);
  CHECK_THAT(r.message, Catch::Contains("past the last full block of 32 threads"));
}

TEST_CASE("compare: float_bound passes within factor * 2^-24 * scale and fails just outside", "[compare]") {
  const float u22 = std::ldexp(1.0f, -22), u23 = std::ldexp(1.0f, -23), u24 = std::ldexp(1.0f, -24);
  const NdArray e = NdArray::from(std::vector<float>{1.0f});
  const NdArray scale1 = NdArray::from(std::vector<double>{1.0});
  auto check = [&](float got) {
    return compare_output(bound(4), "c", e, NdArray::from(std::vector<float>{got}), &scale1);
  };
  // factor 4, scale 1: the bound is 4 * 2^-24 = 2^-22.
  CHECK(check(1.0f + u22).passed);
  CHECK(check(1.0f - u22).passed);
  CHECK_FALSE(check(1.0f + u22 + u23).passed);
  CHECK_FALSE(check(1.0f - u22 - u24).passed);

  // factor 4, scale 1000 around 10 (spacing 2^-20): the bound is 250 spacings.
  const NdArray e10 = NdArray::from(std::vector<float>{10.0f, -10.0f});
  const NdArray scale1000 = NdArray::from(std::vector<double>{1000.0, 1000.0});
  const float step = std::ldexp(1.0f, -20);
  auto check10 = [&](float d) {
    return compare_output(bound(4), "c", e10, NdArray::from(std::vector<float>{10.0f + d, -10.0f - d}), &scale1000);
  };
  CHECK(check10(250 * step).passed);
  const auto outside = check10(251 * step);
  CHECK_FALSE(outside.passed);
  CHECK(outside.bad == 2);

  // Scale 0 (all products zero): only the exact value passes.
  const NdArray zero_scale = NdArray::from(std::vector<double>{0.0});
  const NdArray e0 = NdArray::from(std::vector<float>{0.0f});
  CHECK(compare_output(bound(4), "c", e0, NdArray::from(std::vector<float>{-0.0f}), &zero_scale).passed);
  CHECK_FALSE(compare_output(bound(4), "c", e0, NdArray::from(std::vector<float>{1e-30f}), &zero_scale).passed);
}

TEST_CASE("compare: a single float output outside the bound says by how much", "[compare]") {
  const NdArray e = NdArray::from(std::vector<float>{1.0f});
  const NdArray scale = NdArray::from(std::vector<double>{1.0});
  const auto r = compare_output(bound(4), "sum", e, NdArray::from(std::vector<float>{1.5f}), &scale);
  CHECK(r.message == "sum[0] = 1.5, expected 1; 1 of 1 wrong (off by 0.5; the tolerance here is 2.38e-07)");
}

// Without a scale array the check uses |expected| as the scale, but the
// message computes the tolerance with a scale of 0 and prints "0".
TEST_CASE("compare: without a scale the tolerance shown is the one applied", "[compare]") {
  const NdArray e = NdArray::from(std::vector<float>{1.0f});
  const auto r = compare_output(bound(4), "sum", e, NdArray::from(std::vector<float>{1.5f}), nullptr);
  CHECK_FALSE(r.passed);
  CHECK_THAT(r.message, Catch::EndsWith("the tolerance here is 2.38e-07)"));
}

TEST_CASE("compare: NaN never passes, whatever the scale", "[compare]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const NdArray huge = NdArray::from(std::vector<double>{1e300, std::numeric_limits<double>::infinity()});
  const auto r = compare_output(bound(1e6), "c", NdArray::from(std::vector<float>{1.0f, 2.0f}),
                                NdArray::from(std::vector<float>{nan, nan}), &huge);
  CHECK_FALSE(r.passed);
  CHECK(r.bad == 2);
  // The same scales admit any finite value: only NaN fails.
  CHECK(compare_output(bound(1), "c", NdArray::from(std::vector<float>{1.0f, 2.0f}),
                       NdArray::from(std::vector<float>{1e30f, -5.0f}), &huge)
            .passed);
  // Nor does NaN pass without a scale file, nor against an infinite expected value.
  CHECK_FALSE(compare_output(bound(1e6), "c", NdArray::from(std::vector<float>{std::numeric_limits<float>::infinity()}),
                             NdArray::from(std::vector<float>{nan}), nullptr)
                  .passed);
}

TEST_CASE("compare: exact float check accepts -0 for +0 and nothing else", "[compare]") {
  const auto r = compare_output(kExact, "c", NdArray::from(std::vector<float>{0.0f, 1.0f}),
                                NdArray::from(std::vector<float>{-0.0f, std::nextafter(1.0f, 2.0f)}), nullptr);
  CHECK(r.bad == 1);
  CHECK(r.message == "c[1] = 1.00000012, expected 1; 1 of 2 wrong");
}

TEST_CASE("compare: 2-D outputs name row and column", "[compare]") {
  std::vector<float> want(6), got(6);
  for (int i = 0; i < 6; ++i) want[i] = got[i] = static_cast<float>(i) + 0.5f;
  got[5] = 9.25f;
  const auto r = compare_output(bound(4), "c", NdArray::from(want, {2, 3}), NdArray::from(got, {2, 3}), nullptr);
  CHECK(r.first_bad == 5);
  CHECK_THAT(r.message, Catch::StartsWith("c[1][2] = 9.25, expected 5.5; 1 of 6 wrong"));
}

TEST_CASE("compare: an output of the wrong type or size fails as a whole", "[compare]") {
  const auto size = compare_output(kExact, "out", NdArray::from(iota_ints(4)), NdArray::from(iota_ints(3)), nullptr);
  CHECK_FALSE(size.passed);
  CHECK(size.bad == 4);
  CHECK(size.message == "output 'out' has the wrong type or size");
  const auto type =
      compare_output(kExact, "out", NdArray::from(iota_ints(2)), NdArray::from(std::vector<float>{1, 4}), nullptr);
  CHECK(type.message == "output 'out' has the wrong type or size");
}
