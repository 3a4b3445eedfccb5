// The emulator's findings for its conformance tests: diagnostics_after() synchronises (expecting
// the given result), takes every diagnostic recorded so far and logs each one with the test's
// output; has() says whether a message contains a phrase. Emulator only (GPULAB_EMULATOR).
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpulab/emu/diagnostics_api.hpp"

inline std::vector<gpulab::emu::Diagnostic> diagnostics_after(cudaError_t expected) {
  CHECK(cudaDeviceSynchronize() == expected);
  std::vector<gpulab::emu::Diagnostic> all = gpulab::emu::take_diagnostics();
  for (const gpulab::emu::Diagnostic& d : all) UNSCOPED_INFO("diagnostic [" << d.kind << "]: " << d.message);
  return all;
}

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
