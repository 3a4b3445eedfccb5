// Helpers of the emulator's tests of regions between barriers (test_regions.cu,
// test_region_loops.cu): device arrays, and a launch checked to have taken the way the environment
// asks for (regions by default, one fiber per thread with GPULAB_EMU_REGIONS=0).
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "device_array.cuh"

namespace region_test {

using ::DeviceArray;

inline bool regions_on() {
  const char* v = std::getenv("GPULAB_EMU_REGIONS");
  return !(v && std::strcmp(v, "0") == 0);
}

// Runs `launch`, then checks that its blocks took the way the environment asks for.
template <class F> void launched_as_asked(F launch) {
  const unsigned long long before = gpulab::emu::region_blocks_run();
  launch();
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const unsigned long long ran = gpulab::emu::region_blocks_run() - before;
  if (regions_on()) {
    CHECK(ran > 0);
  } else {
    CHECK(ran == 0);
  }
}

}  // namespace region_test
