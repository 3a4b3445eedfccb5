// Winnowing: one fingerprint per window at least, each the minimum of its window, and the guarantee
// that any run of >= w + k - 1 tokens two documents share gives them a common fingerprint, while runs
// shorter than k tokens are never matched.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

#include "similarity/winnowing.hpp"

using namespace gpulab::similarity;

namespace {
std::vector<std::uint64_t> random_symbols(std::mt19937_64& rng, std::size_t n, std::uint64_t base) {
  std::vector<std::uint64_t> s(n);
  for (auto& x : s) x = base + rng() % 1000000;  // disjoint ranges per document: no accidental sharing
  return s;
}
}  // namespace

TEST_CASE("k-gram hashes: one per k-gram, none for fewer than k tokens", "[similarity]") {
  const std::vector<std::uint64_t> s{1, 2, 3, 4, 5, 1, 2, 3};
  const auto h = kgram_hashes(s, 3);
  REQUIRE(h.size() == 6);
  CHECK(h[0] == h[5]);  // "1 2 3" twice
  CHECK(h[0] != h[1]);
  CHECK(kgram_hashes(s, 9).empty());
  CHECK(kgram_hashes({}, 3).empty());
}

TEST_CASE("winnow: every window holds a fingerprint, and it is the window's minimum", "[similarity]") {
  std::mt19937_64 rng(7);
  for (const int w : {1, 2, 4, 8, 17}) {
    std::vector<std::uint64_t> h(300);
    for (auto& x : h) x = rng() % 50;  // many ties
    const auto f = winnow(h, w);
    REQUIRE(!f.empty());
    for (std::size_t i = 1; i < f.size(); ++i) CHECK(f[i - 1].position < f[i].position);
    for (std::size_t start = 0; start + w <= h.size(); ++start) {
      const std::uint64_t least = *std::min_element(h.begin() + start, h.begin() + start + w);
      const bool found = std::any_of(f.begin(), f.end(), [&](const Fingerprint& p) {
        return p.position >= start && p.position < start + w && p.hash == least;
      });
      CHECK(found);
    }
  }
}

TEST_CASE("winnow: a sequence shorter than the window gives its minimum", "[similarity]") {
  const auto f = winnow({9, 4, 7}, 8);
  REQUIRE(f.size() == 1);
  CHECK(f[0].hash == 4);
  CHECK(f[0].position == 1);
  CHECK(winnow({}, 8).empty());
}

TEST_CASE("guarantee: any shared run of w + k - 1 tokens is detected, wherever it sits", "[similarity]") {
  std::mt19937_64 rng(2003);
  for (const auto& [k, w] : std::vector<std::pair<int, int>>{{12, 8}, {5, 4}, {1, 1}, {20, 30}}) {
    for (int trial = 0; trial < 200; ++trial) {
      const std::size_t run = static_cast<std::size_t>(w + k - 1);
      const std::vector<std::uint64_t> shared = random_symbols(rng, run, 3000000);
      std::vector<std::uint64_t> a = random_symbols(rng, rng() % 200, 0);
      std::vector<std::uint64_t> b = random_symbols(rng, rng() % 200, 1000000);
      const std::size_t at_a = a.size(), at_b = b.size();
      a.insert(a.end(), shared.begin(), shared.end());
      b.insert(b.end(), shared.begin(), shared.end());
      const auto tail_a = random_symbols(rng, rng() % 200, 0), tail_b = random_symbols(rng, rng() % 200, 1000000);
      a.insert(a.end(), tail_a.begin(), tail_a.end());
      b.insert(b.end(), tail_b.begin(), tail_b.end());

      const auto fa = winnow(kgram_hashes(a, k), w), fb = winnow(kgram_hashes(b, k), w);
      std::set<std::uint64_t> in_b;
      for (const Fingerprint& f : fb)
        if (f.position >= at_b && f.position + k <= at_b + run) in_b.insert(f.hash);
      bool detected = false;
      for (const Fingerprint& f : fa)
        detected |= f.position >= at_a && f.position + k <= at_a + run && in_b.count(f.hash) > 0;
      INFO("k " << k << ", w " << w << ", trial " << trial);
      REQUIRE(detected);
    }
  }
}

TEST_CASE("runs shorter than k tokens are never matched", "[similarity]") {
  std::mt19937_64 rng(11);
  const int k = 12, w = 8;
  for (int trial = 0; trial < 100; ++trial) {
    const std::vector<std::uint64_t> shared = random_symbols(rng, k - 1, 3000000);
    std::vector<std::uint64_t> a = random_symbols(rng, 100, 0), b = random_symbols(rng, 100, 1000000);
    a.insert(a.begin() + 50, shared.begin(), shared.end());
    b.insert(b.begin() + 20, shared.begin(), shared.end());
    std::set<std::uint64_t> hb;
    for (const Fingerprint& f : winnow(kgram_hashes(b, k), w)) hb.insert(f.hash);
    for (const Fingerprint& f : winnow(kgram_hashes(a, k), w)) REQUIRE(hb.count(f.hash) == 0);
  }
}
