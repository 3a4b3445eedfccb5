// Cost of one warp-level request (see warp_request.hpp). Addresses usually
// arrive in increasing order (lane i reads element base + i), so the distinct
// sectors and words are counted without sorting unless they do not.
#include "warp_request.hpp"

#include <algorithm>
#include <vector>

namespace gpulab::emu::check {
namespace {

// Sorts (only if needed) and removes duplicates; returns the new length.
size_t sort_unique(uintptr_t* v, size_t n) {
  if (!std::is_sorted(v, v + n)) std::sort(v, v + n);
  return static_cast<size_t>(std::unique(v, v + n) - v);
}

// Every unit (sector or word) of `unit_shift` bits that [address, address + size) touches.
template <class Out> void units_of(const LaneAccess& a, unsigned unit_shift, Out&& out) {
  const uintptr_t first = a.address >> unit_shift;
  const uintptr_t last = (a.address + (a.size ? a.size : 1) - 1) >> unit_shift;
  for (uintptr_t u = first; u <= last; ++u) out(u);
}

}  // namespace

GlobalRequestCost global_request_cost(const LaneAccess* lanes, size_t n) {
  thread_local std::vector<uintptr_t> sectors;  // reused: no allocation per request
  sectors.clear();
  uint64_t bytes = 0;
  for (size_t i = 0; i < n; ++i) {
    bytes += lanes[i].size;
    units_of(lanes[i], 5, [&](uintptr_t s) {
      if (sectors.empty() || sectors.back() != s) sectors.push_back(s);
    });
  }
  GlobalRequestCost c;
  c.sectors = static_cast<unsigned>(sort_unique(sectors.data(), sectors.size()));
  c.ideal_sectors = static_cast<unsigned>((bytes + 31) / 32);
  return c;
}

SharedRequestCost shared_request_cost(const LaneAccess* lanes, size_t n) {
  unsigned width = 0;
  for (size_t i = 0; i < n; ++i) width = std::max(width, lanes[i].size);
  // Lanes served together: all 32 for accesses of up to 4 bytes, a half-warp for 8, a quarter for 16.
  const unsigned lanes_per_pass = width > 8 ? 8 : width > 4 ? 16 : 32;
  SharedRequestCost c;
  thread_local std::vector<uintptr_t> words;
  size_t i = 0;
  while (i < n) {
    const unsigned phase = lanes[i].lane / lanes_per_pass;
    words.clear();
    for (; i < n && lanes[i].lane / lanes_per_pass == phase; ++i) {
      units_of(lanes[i], 2, [&](uintptr_t w) { words.push_back(w); });
    }
    const size_t distinct = sort_unique(words.data(), words.size());
    unsigned per_bank[32] = {};
    unsigned ways = 1;
    for (size_t k = 0; k < distinct; ++k) ways = std::max(ways, ++per_bank[words[k] & 31]);
    c.wavefronts += ways;
    c.ideal_wavefronts += 1;
    c.worst_ways = std::max(c.worst_ways, ways);
  }
  return c;
}

AtomicSpread atomic_spread(const LaneAccess* lanes, size_t n) {
  thread_local std::vector<uintptr_t> addresses;
  addresses.resize(n);
  for (size_t i = 0; i < n; ++i) addresses[i] = lanes[i].address;
  std::sort(addresses.begin(), addresses.end());
  AtomicSpread s;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && addresses[j] == addresses[i]) ++j;
    ++s.distinct_addresses;
    s.most_on_one_address = std::max(s.most_on_one_address, static_cast<unsigned>(j - i));
    i = j;
  }
  return s;
}

LaneStride lane_stride(const LaneAccess* lanes, size_t n) {
  LaneStride s;
  if (n < 2) return s;
  const auto step = [&](size_t k) {
    const int64_t d = static_cast<int64_t>(lanes[k + 1].address) - static_cast<int64_t>(lanes[k].address);
    return d / static_cast<int64_t>(lanes[k + 1].lane - lanes[k].lane);
  };
  s.bytes = step(0);
  size_t following = 0;
  for (size_t k = 0; k + 1 < n; ++k) following += step(k) == s.bytes;
  s.uniform = following * 4 >= (n - 1) * 3;
  return s;
}

}  // namespace gpulab::emu::check
