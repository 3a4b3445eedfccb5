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
// The same array with its elements mapped from the file rather than copied (copy-on-write: writing
// to them never changes the file), for the grader's reading of large outputs and expected outputs;
// read as read_npy does where the file cannot be mapped. The file must not shrink while the array
// is in use (the grader's datasets and a finished child's outputs do not).
NdArray map_npy(const std::filesystem::path& path);
void write_npy(const std::filesystem::path& path, const NdArray& array);

}  // namespace gpulab
