// Winnowing (Schleimer, Wilkerson and Aiken, "Winnowing: local algorithms for document
// fingerprinting", SIGMOD 2003). A document's k-grams (k consecutive normalised tokens) are hashed;
// of every window of w consecutive k-gram hashes the minimum is kept (the rightmost one on a tie), and
// the kept hashes are the document's fingerprints. Guarantee: two documents that share a run of at
// least w + k - 1 tokens share a fingerprint, because the run holds w whole k-grams, one full window,
// whose minimum both documents keep. Runs shorter than k tokens are never seen (noise threshold).
#pragma once

#include <cstdint>
#include <vector>

namespace gpulab::similarity {

struct Fingerprint {
  std::uint64_t hash;
  std::uint32_t position;  // index of the k-gram's first token
};

// One hash per k-gram: symbols.size() - k + 1 of them, none when there are fewer than k symbols.
std::vector<std::uint64_t> kgram_hashes(const std::vector<std::uint64_t>& symbols, int k);

// The fingerprints selected by robust winnowing with window w, in position order. With fewer than w
// hashes (a short file) the whole sequence is one window, so any non-empty input gives a fingerprint.
std::vector<Fingerprint> winnow(const std::vector<std::uint64_t>& hashes, int w);

}  // namespace gpulab::similarity
