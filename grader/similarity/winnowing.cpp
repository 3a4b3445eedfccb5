// kgram_hashes and winnow.
#include "similarity/winnowing.hpp"

#include <algorithm>

namespace gpulab::similarity {
namespace {
std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser: spreads every input bit over the hash
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
}  // namespace

std::vector<std::uint64_t> kgram_hashes(const std::vector<std::uint64_t>& symbols, int k) {
  std::vector<std::uint64_t> out;
  if (k < 1 || symbols.size() < static_cast<std::size_t>(k)) return out;
  out.reserve(symbols.size() - k + 1);
  for (std::size_t i = 0; i + k <= symbols.size(); ++i) {
    std::uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int j = 0; j < k; ++j) h = mix(h ^ symbols[i + j]);
    out.push_back(h);
  }
  return out;
}

std::vector<Fingerprint> winnow(const std::vector<std::uint64_t>& hashes, int w) {
  std::vector<Fingerprint> out;
  if (hashes.empty()) return out;
  const std::size_t window = std::min<std::size_t>(std::max(w, 1), hashes.size());
  std::size_t chosen = hashes.size();  // position kept for the previous window (none yet)
  for (std::size_t start = 0; start + window <= hashes.size(); ++start) {
    std::size_t best = start;
    for (std::size_t i = start + 1; i < start + window; ++i)
      if (hashes[i] <= hashes[best]) best = i;  // rightmost minimum
    if (best != chosen) {
      out.push_back({hashes[best], static_cast<std::uint32_t>(best)});
      chosen = best;
    }
  }
  return out;
}

}  // namespace gpulab::similarity
