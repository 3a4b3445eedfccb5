// XORWOW's skip-ahead (see gpulab/emu/curand_device.hpp): the xorshift part of one step is linear
// over GF(2), so n steps are the n-th power of a 160 x 160 bit matrix. The powers M^(2^k) (for an
// offset) and M^(2^(67+k)) (for a subsequence) are made once by squaring, each with byte tables
// that apply it to a state in 20 lookups.
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>

#include "gpulab/emu/curand_device.hpp"

namespace gpulab::emu::curand {
namespace {
using State = std::array<std::uint32_t, 5>;

// A linear map of the 160-bit state: the image of each basis bit.
struct Matrix {
  std::array<State, 160> image{};
};

State apply_slow(const Matrix& m, const State& x) {
  State r{};
  for (int bit = 0; bit < 160; ++bit) {
    if ((x[bit / 32] >> (bit % 32)) & 1u) {
      for (int w = 0; w < 5; ++w) r[w] ^= m.image[bit][w];
    }
  }
  return r;
}

Matrix square(const Matrix& m) {
  Matrix s;
  for (int bit = 0; bit < 160; ++bit) s.image[bit] = apply_slow(m, m.image[bit]);
  return s;
}

Matrix one_step() {
  Matrix m;
  for (int bit = 0; bit < 160; ++bit) {
    State v{};
    v[bit / 32] = 1u << (bit % 32);
    const std::uint32_t t = v[0] ^ (v[0] >> 2);
    m.image[bit] = {v[1], v[2], v[3], v[4], (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1))};
  }
  return m;
}

// A power of the step, with its tables made the first time it is used.
struct Power {
  Matrix matrix;
  std::once_flag tables_made;
  std::unique_ptr<std::array<std::array<State, 256>, 20>> tables;

  void make_tables() {
    tables = std::make_unique<std::array<std::array<State, 256>, 20>>();
    for (int byte = 0; byte < 20; ++byte) {
      auto& t = (*tables)[byte];
      t[0] = State{};
      for (int value = 1; value < 256; ++value) {
        const int low = value & -value;  // its lowest bit, whose image joins the value without it
        int bit = 0;
        while ((1 << bit) != low) ++bit;
        const State& rest = t[value ^ low];
        const State& image = matrix.image[byte * 8 + bit];
        for (int w = 0; w < 5; ++w) t[value][w] = rest[w] ^ image[w];
      }
    }
  }
  void apply(unsigned int v[5]) {
    std::call_once(tables_made, [this] { make_tables(); });
    State r{};
    for (int byte = 0; byte < 20; ++byte) {
      const State& part = (*tables)[byte][(v[byte / 4] >> (8 * (byte % 4))) & 0xffu];
      for (int w = 0; w < 5; ++w) r[w] ^= part[w];
    }
    for (int w = 0; w < 5; ++w) v[w] = r[w];
  }
};

// powers[k]: M^(2^k) for k < 64 (numbers), M^(2^(67 + k - 64)) for k >= 64 (subsequences).
struct Powers {
  std::array<Power, 128> power;
  Powers() {
    Matrix m = one_step();
    for (int k = 0; k < 131; ++k) {
      if (k < 64) power[k].matrix = m;
      if (k >= 67) power[k - 3].matrix = m;
      m = square(m);
    }
  }
};

Powers& powers() {
  static Powers p;  // made once, by the first thread that asks (C++ makes that thread-safe)
  return p;
}

void skip(unsigned int v[5], unsigned long long n, int first) {
  if (n == 0) return;
  Powers& p = powers();
  for (int k = 0; n != 0; ++k, n >>= 1) {
    if (n & 1u) p.power[first + k].apply(v);
  }
}
}  // namespace

void xorwow_skip(unsigned int v[5], unsigned long long n) { skip(v, n, 0); }
void xorwow_skip_sequences(unsigned int v[5], unsigned long long n) { skip(v, n, 64); }

}  // namespace gpulab::emu::curand
