// FNV-1a, with a separator after each piece so that ("ab","c") != ("a","bc").
#include "content_hash.hpp"

#include <fmt/format.h>

namespace gpulab::toolchain {

ContentHash& ContentHash::add(std::string_view bytes) {
  for (unsigned char c : bytes) {
    state_ ^= c;
    state_ *= 1099511628211ull;
  }
  state_ ^= 0xff;
  state_ *= 1099511628211ull;
  return *this;
}

std::string ContentHash::hex() const { return fmt::format("{:016x}", state_); }

}  // namespace gpulab::toolchain
