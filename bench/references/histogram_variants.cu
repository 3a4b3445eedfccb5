// Reference tuning for the histogram lab: CUB's HistogramEven (the bench's
// baseline, as reference/histogram/baseline.cu calls it), the previous
// reference and candidate shapes of the new one, on the bench's four inputs
// (1 GiB: prose, all 'e', uniform bytes, all equal) and a ragged length at an
// unaligned address; bins compared with CUB's exactly. Built by build.sh.
#include <cub/device/device_histogram.cuh>

#include <random>

// The references' own headers first, so that none is first included inside
// the namespaces below.
#include <cuda_pipeline.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "common.cuh"

namespace before {
#include "before/histogram.cu"
}
namespace after {
#include "../../reference/histogram/histogram.cu"
}

using namespace refbench;

// Prose like grader/data/value_generators.cpp's "text" distribution.
static std::vector<unsigned char> prose(size_t n, uint64_t seed) {
  static const char* words[] = {"the",    "warp",          "Block",     "GPU",  "kernel",   "shared", "memory",
                                "Thread", "atomic",        "histogram", "CUDA", "parallel", "zebra",  "quick",
                                "brown",  "fox",           "jumps",     "over", "lazy",     "dog",    "x",
                                "yield",  "PRIVATIZATION", "coalesced", "bank", "conflict"};
  static const char* punct[] = {" ", " ", " ", " ", ", ", ". ", "; ", "! ", "? ", "\n", " - ", " (", ") ", "\"", "'"};
  static const char* extra[] = {"\xc3\xa9", "\xc3\xa0", "\xc3\xa7", "\xe2\x82\xac", "\xc3\x9f", "\t"};
  std::vector<unsigned char> b(n);
  std::mt19937_64 rng(seed);
  size_t i = 0;
  auto put = [&](const char* s) {
    for (; *s && i < n; ++s) b[i++] = static_cast<unsigned char>(*s);
  };
  while (i < n) {
    const int r = static_cast<int>(rng() % 100);
    if (r < 70) put(words[rng() % 26]);
    else if (r < 80) put(std::to_string(rng() % 10000).c_str());
    else if (r < 85) put(extra[rng() % 6]);
    put(punct[rng() % 15]);
  }
  return b;
}

__global__ void letters_to_bins(const unsigned int* letters, unsigned int* bins) {
  const int b = threadIdx.x;
  unsigned int sum = 0;
  for (int l = 4 * b; l < 4 * b + 4 && l < 26; ++l) sum += letters[l];
  bins[b] += sum;
}

int main(int argc, char** argv) {
  const Options o = Options::parse(argc, argv);
  const size_t full = o.quick ? (size_t(1) << 22) : (size_t(1) << 30);
  unsigned char* data;
  CHECK_CUDA(cudaMalloc(&data, full + 64));
  unsigned int *bins, *ref, *letters;
  CHECK_CUDA(cudaMalloc(&bins, 256 * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&ref, 256 * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&letters, 26 * sizeof(unsigned)));
  void* temp = nullptr;
  size_t temp_bytes = 0;
  header("histogram", "CUB");
  struct Case {
    const char* part;
    const char* label;
    int fill;
    size_t offset, n;
  };  // fill: 0 prose, 1 bytes, else constant
  const std::vector<Case> cases = {{"text", "text", 0, 0, full},
                                   {"text", "all 'e'", 'e', 0, full},
                                   {"text", "text, ragged", 0, 3, full - 7},
                                   {"bytes", "uniform", 1, 0, full},
                                   {"bytes", "all equal", 255, 0, full},
                                   {"bytes", "uniform, ragged", 1, 5, full - 11}};
  for (const Case& cs : cases) {
    if (cs.fill == 0) {
      const size_t chunk = std::min<size_t>(full, 64u << 20);
      const std::vector<unsigned char> p = prose(chunk, 7);
      for (size_t at = 0; at < full + 64; at += chunk)
        CHECK_CUDA(cudaMemcpy(data + at, p.data(), std::min(chunk, full + 64 - at), cudaMemcpyHostToDevice));
    } else if (cs.fill == 1) {
      fill_bytes(data, full + 64, 9);
    } else {
      CHECK_CUDA(cudaMemset(data, cs.fill, full + 64));
    }
    const bool text = !std::strcmp(cs.part, "text");
    const unsigned char* d = data + cs.offset;
    const size_t n = cs.n;
    const int nbins = text ? 7 : 256;
    auto cub_run = [&] {
      size_t b = 0;
      if (text) {
        const char* t = reinterpret_cast<const char*>(d);
        cub::DeviceHistogram::HistogramEven(nullptr, b, t, letters, 27, int{'a'}, int{'z'} + 1, (long long)n);
        if (b > temp_bytes) {
          cudaFree(temp);
          CHECK_CUDA(cudaMalloc(&temp, b));
          temp_bytes = b;
        }
        cub::DeviceHistogram::HistogramEven(temp, b, t, letters, 27, int{'a'}, int{'z'} + 1, (long long)n);
        letters_to_bins<<<1, 7>>>(letters, ref);
      } else {
        cub::DeviceHistogram::HistogramEven(nullptr, b, d, ref, 257, 0, 256, (long long)n);
        if (b > temp_bytes) {
          cudaFree(temp);
          CHECK_CUDA(cudaMalloc(&temp, b));
          temp_bytes = b;
        }
        cub::DeviceHistogram::HistogramEven(temp, b, d, ref, 257, 0, 256, (long long)n);
      }
    };
    auto cub_timed = [&] {
      cudaMemsetAsync(ref, 0, 256 * sizeof(unsigned));
      cub_run();
    };
    using namespace after;
    const char* t = reinterpret_cast<const char*>(d);
    std::vector<Impl> impls;
    if (text) {
      impls = {{"reference (before)", [=] { before::histogram_text(t, bins, n); }},
               {"reference (after)", [=] { after::histogram_text(t, bins, n); }},
               {"text 256x8 unroll 2", [=] { text_with<HistShape<256, 8, 2>>(t, bins, n); }},
               {"text 256x8 unroll 4", [=] { text_with<HistShape<256, 8, 4>>(t, bins, n); }},
               {"text 512x4 unroll 2", [=] { text_with<HistShape<512, 4, 2>>(t, bins, n); }},
               {"text 128x16 unroll 2", [=] { text_with<HistShape<128, 16, 2>>(t, bins, n); }},
               {"text 256x6 unroll 4", [=] { text_with<HistShape<256, 6, 4>>(t, bins, n); }},
               {"text 256x8 unroll 1", [=] { text_with<HistShape<256, 8, 1>>(t, bins, n); }}};
    } else {
      impls = {{"reference (before)", [=] { before::histogram_bytes(d, bins, n); }},
               {"reference (after)", [=] { after::histogram_bytes(d, bins, n); }},
               {"bytes 512x4 unroll 1", [=] { bytes_with<HistShape<512, 4, 1>>(d, bins, n); }},
               {"bytes 512x4 unroll 2", [=] { bytes_with<HistShape<512, 4, 2>>(d, bins, n); }},
               {"bytes 512x4 unroll 4", [=] { bytes_with<HistShape<512, 4, 4>>(d, bins, n); }},
               {"bytes 1024x2 unroll 2", [=] { bytes_with<HistShape<1024, 2, 2>>(d, bins, n); }},
               {"bytes 256x8 unroll 2", [=] { bytes_with<HistShape<256, 8, 2>>(d, bins, n); }},
               {"bytes 512x3 unroll 2", [=] { bytes_with<HistShape<512, 3, 2>>(d, bins, n); }}};
    }
    CHECK_CUDA(cudaMemset(ref, 0, 256 * sizeof(unsigned)));
    cub_run();
    CHECK_CUDA(cudaDeviceSynchronize());
    if (!o.only.empty()) {
      for (Impl& i : impls)
        if (std::string(cs.part) + " " + i.name == o.only && cs.offset == 0) {
          i.run();
          CHECK_CUDA(cudaDeviceSynchronize());
        }
      continue;
    }
    const double base = time_ms(cub_timed, o.runs);
    row(cs.part, cs.label, "CUB", base, base, double(n), "GB/s", "-");
    for (Impl& i : impls) {
      auto timed = [&] {
        cudaMemsetAsync(bins, 0, 256 * sizeof(unsigned));
        i.run();
      };
      const double ms = time_ms(timed, o.runs);
      row(cs.part, cs.label, i.name, ms, base, double(n), "GB/s",
          same_bytes(bins, ref, nbins * sizeof(unsigned)) ? "ok" : "WRONG");
    }
  }
  return 0;
}
