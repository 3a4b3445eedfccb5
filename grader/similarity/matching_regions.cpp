// matching_regions: seeds from shared fingerprints, maximal extension, greedy non-overlapping choice.
#include "similarity/matching_regions.hpp"

#include <algorithm>
#include <unordered_map>

#include "similarity/normalised_tokens.hpp"
#include "similarity/winnowing.hpp"

namespace gpulab::similarity {
namespace {

constexpr std::size_t kMaxOccurrences = 4;

struct Run {
  std::size_t a, b, length;  // token indices
};

std::vector<std::uint64_t> symbols(const std::vector<NormalisedToken>& tokens) {
  std::vector<std::uint64_t> s;
  s.reserve(tokens.size());
  for (const NormalisedToken& t : tokens) s.push_back(t.symbol);
  return s;
}

bool overlaps(std::size_t begin, std::size_t length, std::size_t other_begin, std::size_t other_length) {
  return begin < other_begin + other_length && other_begin < begin + length;
}

}  // namespace

std::vector<Region> matching_regions(const std::string& a, const std::string& b,
                                     const std::unordered_set<std::uint64_t>& excluded, const SimilarityOptions& o) {
  const std::vector<NormalisedToken> ta = normalise(a), tb = normalise(b);
  const std::vector<std::uint64_t> sa = symbols(ta), sb = symbols(tb);
  const std::vector<Fingerprint> fa = winnow(kgram_hashes(sa, o.k), o.window);
  const std::vector<Fingerprint> fb = winnow(kgram_hashes(sb, o.k), o.window);

  // A fingerprint repeated many times (a file of one line copied over and over) would make the seeds
  // quadratic: only its first kMaxOccurrences places on each side are used.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> in_b;  // shared fingerprint -> positions in b
  for (const Fingerprint& f : fb) {
    if (excluded.count(f.hash)) continue;
    std::vector<std::uint32_t>& places = in_b[f.hash];
    if (places.size() < kMaxOccurrences) places.push_back(f.position);
  }

  std::vector<Run> runs;
  std::unordered_map<std::uint64_t, std::size_t> seen_in_a;
  for (const Fingerprint& f : fa) {
    const auto it = in_b.find(f.hash);
    if (it == in_b.end() || ++seen_in_a[f.hash] > kMaxOccurrences) continue;
    for (const std::uint32_t pb : it->second) {
      std::size_t x = f.position, y = pb;
      // A seed inside a run already found adds nothing.
      bool inside = false;
      for (const Run& r : runs)
        inside |= x >= r.a && x < r.a + r.length && y >= r.b && y < r.b + r.length && x - r.a == y - r.b;
      if (inside) continue;
      while (x > 0 && y > 0 && sa[x - 1] == sb[y - 1]) --x, --y;
      std::size_t length = 0;
      while (x + length < sa.size() && y + length < sb.size() && sa[x + length] == sb[y + length]) ++length;
      if (length > 0) runs.push_back({x, y, length});
    }
  }
  std::stable_sort(runs.begin(), runs.end(), [](const Run& p, const Run& q) { return p.length > q.length; });
  std::vector<Run> kept;
  for (const Run& r : runs) {
    bool clash = false;
    for (const Run& k : kept) clash |= overlaps(r.a, r.length, k.a, k.length) || overlaps(r.b, r.length, k.b, k.length);
    if (!clash) kept.push_back(r);
  }
  std::sort(kept.begin(), kept.end(), [](const Run& p, const Run& q) { return p.a < q.a; });
  std::vector<Region> regions;
  for (const Run& r : kept) {
    const NormalisedToken &a0 = ta[r.a], &a1 = ta[r.a + r.length - 1], &b0 = tb[r.b], &b1 = tb[r.b + r.length - 1];
    regions.push_back(
        {a0.begin, a1.end, b0.begin, b1.end, a0.line, a1.line, b0.line, b1.line, static_cast<std::uint32_t>(r.length)});
  }
  return regions;
}

}  // namespace gpulab::similarity
