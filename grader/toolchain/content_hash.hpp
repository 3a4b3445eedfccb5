// A stable 64-bit content hash (FNV-1a) for naming cached build outputs.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace gpulab::toolchain {

class ContentHash {
 public:
  ContentHash& add(std::string_view bytes);
  std::string hex() const;

 private:
  uint64_t state_ = 1469598103934665603ull;
};

}  // namespace gpulab::toolchain
