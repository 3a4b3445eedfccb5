// Reading and writing NumPy .npy files (format 1.0/2.0, little-endian, C order),
// so datasets and outputs open directly in numpy.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>

#include "nd_array.hpp"

namespace gpulab {

// Names the file and says what is wrong with it (truncated, not .npy, unsupported dtype, ...).
struct DatasetError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

NdArray read_npy(const std::filesystem::path& path);
void write_npy(const std::filesystem::path& path, const NdArray& array);

}  // namespace gpulab
