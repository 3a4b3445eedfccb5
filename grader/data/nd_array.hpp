// A typed n-dimensional array held on the host: the unit in which datasets,
// expected outputs and submission outputs move around the grader.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "uninitialized_allocator.hpp"

namespace gpulab {

enum class DType { int32, uint32, float32, float64, uint8, int8 };

size_t dtype_size(DType t);
const char* dtype_name(DType t);             // "int32", ...; "char" is stored as int8
DType parse_dtype(const std::string& name);  // throws std::invalid_argument with the accepted names
const char* dtype_ctype(DType t);            // the C type in a host-function signature

template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<int32_t>() { return DType::int32; }
template <> constexpr DType dtype_of<uint32_t>() { return DType::uint32; }
template <> constexpr DType dtype_of<float>() { return DType::float32; }
template <> constexpr DType dtype_of<double>() { return DType::float64; }
template <> constexpr DType dtype_of<uint8_t>() { return DType::uint8; }
template <> constexpr DType dtype_of<int8_t>() { return DType::int8; }
template <> constexpr DType dtype_of<char>() { return DType::int8; }

class NdArray {
 public:
  NdArray() = default;
  NdArray(DType dtype, std::vector<size_t> shape);  // every element 0
  // Every element left as the allocator found it, for a caller that overwrites them all at once
  // (reading a .npy file): no zero-filling of a buffer that is about to be replaced.
  static NdArray uninitialized(DType dtype, std::vector<size_t> shape);

  // Elements in memory the array does not own (a .npy file mapped copy-on-write, npy_io.hpp's
  // map_npy: read without copying it); `keep` holds that memory for as long as the array uses it.
  // A copy of such an array owns its elements, as any other copy does.
  static NdArray borrowed(DType dtype, std::vector<size_t> shape, unsigned char* data, std::shared_ptr<void> keep);

  NdArray(const NdArray& other);
  NdArray& operator=(const NdArray& other);
  NdArray(NdArray&& other) noexcept;
  NdArray& operator=(NdArray&& other) noexcept;
  ~NdArray() = default;

  template <class T> static NdArray from(const std::vector<T>& values, std::vector<size_t> shape = {}) {
    if (shape.empty()) shape = {values.size()};
    NdArray a(dtype_of<T>(), shape);
    if (a.size() != values.size()) throw std::invalid_argument("NdArray::from: shape does not match the values");
    if (!values.empty()) std::memcpy(a.bytes_.data(), values.data(), values.size() * sizeof(T));
    return a;
  }

  DType dtype() const { return dtype_; }
  const std::vector<size_t>& shape() const { return shape_; }
  size_t size() const;  // number of elements
  size_t byte_size() const { return borrowed_ ? borrowed_bytes_ : bytes_.size(); }
  unsigned char* data() { return borrowed_ ? borrowed_ : bytes_.data(); }
  const unsigned char* data() const { return borrowed_ ? borrowed_ : bytes_.data(); }
  std::string shape_text() const;  // "(1000003,)" or "(37, 53)"

  template <class T> std::span<T> as() {
    check_type<T>();
    return {reinterpret_cast<T*>(data()), size()};
  }
  template <class T> std::span<const T> as() const {
    check_type<T>();
    return {reinterpret_cast<const T*>(data()), size()};
  }

 private:
  template <class T> void check_type() const {
    if (dtype_of<std::remove_const_t<T>>() != dtype_ && sizeof(T) != dtype_size(dtype_)) {
      throw std::logic_error(std::string("NdArray holds ") + dtype_name(dtype_) + " elements");
    }
  }
  DType dtype_ = DType::uint8;
  std::vector<size_t> shape_;
  std::vector<unsigned char, UninitializedAllocator<unsigned char>> bytes_;
  unsigned char* borrowed_ = nullptr;  // the elements, where the array does not own them
  size_t borrowed_bytes_ = 0;
  std::shared_ptr<void> keep_;  // what holds borrowed_ valid
};

}  // namespace gpulab
