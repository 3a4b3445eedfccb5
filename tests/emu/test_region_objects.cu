// Objects of the program's own types in kernels that run as regions between barriers: a default
// constructor, a constructor with uniform arguments, an operator and a template parameter's type,
// each reading threadIdx, so that every thread's object differs although nothing in the kernel's
// own text says so. Each must be one object per thread, built with the thread's indices (a
// block-level copy, built once, would give every thread the same values). CTest runs this file
// twice, as regions and with GPULAB_EMU_REGIONS=0 (one fiber per thread): the same results.
#include <catch2/catch.hpp>

#include <vector>

#include "region_test_helpers.cuh"

namespace {

using region_test::DeviceArray;
using region_test::launched_as_asked;

struct Place {  // the thread's position, read by its default constructor
  int x, doubled;
  __device__ Place() : x(static_cast<int>(threadIdx.x)), doubled(static_cast<int>(threadIdx.x) * 2) {}
};

struct Scaled {  // built from a value every thread has alike, and the thread's index
  int v;
  __device__ explicit Scaled(int scale) : v(static_cast<int>(threadIdx.x) * scale) {}
};

struct Offset {  // an operator that reads threadIdx
  int v;
  __device__ Offset operator+(const Offset& o) const { return Offset{v + o.v + static_cast<int>(threadIdx.x)}; }
};

struct Lane {  // a template argument's type, default-constructed
  int v;
  __device__ Lane() : v(static_cast<int>(threadIdx.x) % 32) {}
};

template <class T> __global__ void objects_across_barrier(int* out) {
  __shared__ int swapped[64];
  const Place place;
  const Scaled scaled(3);
  const Offset one{1}, two{2};
  T lane;
  swapped[place.x] = place.doubled;
  __syncthreads();
  const Offset sum = one + two;
  out[place.x] = swapped[63 - place.x] + scaled.v * 100 + (sum.v - 3) * 10000 + lane.v * 1000000;
}

}  // namespace

TEST_CASE("regions: objects whose constructors and operators read threadIdx are one per thread") {
  DeviceArray<int> out(64);
  launched_as_asked([&] { objects_across_barrier<Lane><<<1, 64>>>(out.p); });
  const std::vector<int> h = out.host();
  for (int t = 0; t < 64; ++t) {
    INFO("thread " << t);
    CHECK(h[t] == (63 - t) * 2 + t * 3 * 100 + t * 10000 + (t % 32) * 1000000);
  }
}
