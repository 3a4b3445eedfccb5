// NdArray and the dtype table.
#include "nd_array.hpp"

#include <utility>

namespace gpulab {

size_t dtype_size(DType t) {
  switch (t) {
    case DType::int32:
    case DType::uint32:
    case DType::float32: return 4;
    case DType::float64: return 8;
    case DType::uint8:
    case DType::int8: return 1;
  }
  return 1;
}

const char* dtype_name(DType t) {
  switch (t) {
    case DType::int32: return "int32";
    case DType::uint32: return "uint32";
    case DType::float32: return "float32";
    case DType::float64: return "float64";
    case DType::uint8: return "uint8";
    case DType::int8: return "char";
  }
  return "?";
}

const char* dtype_ctype(DType t) {
  switch (t) {
    case DType::int32: return "int";
    case DType::uint32: return "unsigned int";
    case DType::float32: return "float";
    case DType::float64: return "double";
    case DType::uint8: return "unsigned char";
    case DType::int8: return "char";
  }
  return "?";
}

DType parse_dtype(const std::string& name) {
  if (name == "int32") return DType::int32;
  if (name == "uint32") return DType::uint32;
  if (name == "float32") return DType::float32;
  if (name == "float64") return DType::float64;
  if (name == "uint8") return DType::uint8;
  if (name == "char" || name == "int8") return DType::int8;
  throw std::invalid_argument("unknown dtype '" + name + "' (use int32, uint32, float32, float64, uint8 or char)");
}

NdArray::NdArray(DType dtype, std::vector<size_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  bytes_.assign(size() * dtype_size(dtype_), 0);
}

NdArray NdArray::uninitialized(DType dtype, std::vector<size_t> shape) {
  NdArray a;
  a.dtype_ = dtype;
  a.shape_ = std::move(shape);
  a.bytes_.resize(a.size() * dtype_size(dtype));  // default-initialised: not zeroed (uninitialized_allocator.hpp)
  return a;
}

NdArray NdArray::borrowed(DType dtype, std::vector<size_t> shape, unsigned char* data, std::shared_ptr<void> keep) {
  NdArray a;
  a.dtype_ = dtype;
  a.shape_ = std::move(shape);
  a.borrowed_ = data;
  a.borrowed_bytes_ = a.size() * dtype_size(dtype);
  a.keep_ = std::move(keep);
  return a;
}

NdArray::NdArray(const NdArray& other) : dtype_(other.dtype_), shape_(other.shape_) {
  if (other.borrowed_) {
    bytes_.assign(other.borrowed_, other.borrowed_ + other.borrowed_bytes_);
  } else {
    bytes_ = other.bytes_;
  }
}

NdArray& NdArray::operator=(const NdArray& other) {
  if (this != &other) *this = NdArray(other);
  return *this;
}

NdArray::NdArray(NdArray&& other) noexcept
    : dtype_(other.dtype_),
      shape_(std::move(other.shape_)),
      bytes_(std::move(other.bytes_)),
      borrowed_(std::exchange(other.borrowed_, nullptr)),
      borrowed_bytes_(std::exchange(other.borrowed_bytes_, 0)),
      keep_(std::move(other.keep_)) {}

NdArray& NdArray::operator=(NdArray&& other) noexcept {
  if (this != &other) {
    dtype_ = other.dtype_;
    shape_ = std::move(other.shape_);
    bytes_ = std::move(other.bytes_);
    borrowed_ = std::exchange(other.borrowed_, nullptr);
    borrowed_bytes_ = std::exchange(other.borrowed_bytes_, 0);
    keep_ = std::move(other.keep_);
  }
  return *this;
}

size_t NdArray::size() const {
  size_t n = 1;
  for (size_t d : shape_) n *= d;
  return n;
}

std::string NdArray::shape_text() const {
  std::string s = "(";
  for (size_t i = 0; i < shape_.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape_[i]);
  }
  if (shape_.size() == 1) s += ",";
  return s + ")";
}

}  // namespace gpulab
