// compare_class: fingerprints per document (in parallel), exclusions, the inverted index, pair counts.
#include "similarity/class_comparison.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "similarity/normalised_tokens.hpp"
#include "similarity/winnowing.hpp"

namespace gpulab::similarity {
namespace {

std::vector<std::uint64_t> symbols_of(const std::string& source) {
  std::vector<std::uint64_t> symbols;
  for (const NormalisedToken& t : normalise(source)) symbols.push_back(t.symbol);
  return symbols;
}

// Runs f(i) for i in [0, n) on the machine's cores.
template <typename F> void parallel_for(std::size_t n, F f) {
  const std::size_t workers = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), n);
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t + 1 < workers; ++t)
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < n;) f(i);
    });
  for (std::size_t i; (i = next++) < n;) f(i);
  for (std::thread& t : pool) t.join();
}

}  // namespace

void check_options(const SimilarityOptions& o) {
  const auto got = [](double x) { return " (got " + fmt::format("{:g}", x) + ")"; };
  if (o.k < 1 || o.k > 1000) throw std::invalid_argument("--kgram must be between 1 and 1000 tokens" + got(o.k));
  if (o.window < 1 || o.window > 1000)
    throw std::invalid_argument("--window must be between 1 and 1000 k-grams" + got(o.window));
  if (!(o.common_fraction > 0 && o.common_fraction <= 1))
    throw std::invalid_argument("--common-fraction must be above 0 and at most 1 (1 keeps every fingerprint)" +
                                got(o.common_fraction));
  if (!(o.threshold >= 0 && o.threshold <= 1))
    throw std::invalid_argument("--threshold must be between 0 and 1" + got(o.threshold));
}

std::vector<std::uint64_t> distinct_fingerprints(const std::string& source, const SimilarityOptions& o) {
  std::vector<std::uint64_t> hashes;
  for (const Fingerprint& f : winnow(kgram_hashes(symbols_of(source), o.k), o.window)) hashes.push_back(f.hash);
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
  return hashes;
}

ClassComparison compare_class(const std::vector<Document>& documents, const std::vector<std::string>& skeleton_sources,
                              const SimilarityOptions& o) {
  check_options(o);
  if (documents.size() >= (std::size_t{1} << 31)) throw std::invalid_argument("too many submissions to compare");
  ClassComparison c;
  const std::size_t n = documents.size();

  // Every k-gram of the skeleton, not only its winnowed ones: a student's window may pick any of them.
  std::unordered_set<std::uint64_t> skeleton;
  for (const std::string& s : skeleton_sources)
    for (const std::uint64_t h : kgram_hashes(symbols_of(s), o.k)) skeleton.insert(h);
  c.skeleton_kgrams = skeleton.size();

  std::vector<std::vector<std::uint64_t>> prints(n);
  parallel_for(n, [&](std::size_t i) { prints[i] = distinct_fingerprints(documents[i].source, o); });

  // The index as one sorted list of (fingerprint, document): a group of equal fingerprints is a posting list.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> postings;
  std::unordered_set<std::uint64_t> skeleton_hit;
  std::size_t total = 0;
  for (const auto& p : prints) total += p.size();
  postings.reserve(total);
  for (std::size_t i = 0; i < n; ++i) {
    for (const std::uint64_t h : prints[i]) {
      if (skeleton.count(h)) {
        skeleton_hit.insert(h);
        continue;
      }
      postings.emplace_back(h, static_cast<std::uint32_t>(i));
    }
  }
  c.skeleton_excluded = skeleton_hit.size();
  c.excluded = std::move(skeleton_hit);
  std::sort(postings.begin(), postings.end());

  // "More than a fraction of the class", and more than common_min holders: a group of up to common_min
  // students sharing code is never hidden as an idiom.
  c.common_limit = std::max<std::size_t>(std::max<std::size_t>(o.common_min, 1),
                                         static_cast<std::size_t>(std::floor(o.common_fraction * n)));
  c.fingerprints.assign(n, 0);
  std::unordered_map<std::uint64_t, std::uint32_t> shared;  // (a << 32 | b) -> fingerprints in common
  for (std::size_t g = 0; g < postings.size();) {
    std::size_t end = g + 1;
    while (end < postings.size() && postings[end].first == postings[g].first) ++end;
    const std::size_t holders = end - g;
    if (holders > c.common_limit) {
      ++c.common_excluded;
      c.excluded.insert(postings[g].first);
    } else {
      for (std::size_t x = g; x < end; ++x) {
        ++c.fingerprints[postings[x].second];
        for (std::size_t y = x + 1; y < end; ++y)
          ++shared[(std::uint64_t{postings[x].second} << 32) | postings[y].second];
      }
    }
    g = end;
  }

  c.pairs.reserve(shared.size());
  for (const auto& [key, count] : shared) {
    PairScore p;
    p.a = static_cast<std::uint32_t>(key >> 32);
    p.b = static_cast<std::uint32_t>(key & 0xffffffffu);
    p.shared = count;
    p.similarity = 2.0 * count / static_cast<double>(c.fingerprints[p.a] + c.fingerprints[p.b]);
    c.pairs.push_back(p);
  }
  std::sort(c.pairs.begin(), c.pairs.end(), [&](const PairScore& x, const PairScore& y) {
    if (x.similarity != y.similarity) return x.similarity > y.similarity;
    if (documents[x.a].name != documents[y.a].name) return documents[x.a].name < documents[y.a].name;
    return documents[x.b].name < documents[y.b].name;
  });
  return c;
}

}  // namespace gpulab::similarity
