// Tests of the .npy reader and writer (grader/data/npy_io): every dtype and
// shape round-trips, the files follow numpy's header rules, and every kind of
// damaged file gives a DatasetError that names the file and what is wrong.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "data/npy_io.hpp"
#include "grader_test_support.hpp"

using gpulab::DatasetError;
using gpulab::DType;
using gpulab::NdArray;
using gpulab_test::read_file;
using gpulab_test::TempDir;
using gpulab_test::write_file;

namespace {

// An array of the dtype with distinct, recognisable bytes.
NdArray patterned(DType t, std::vector<size_t> shape) {
  NdArray a(t, std::move(shape));
  for (size_t i = 0; i < a.byte_size(); ++i) a.data()[i] = static_cast<unsigned char>(i * 37 + 11);
  return a;
}

// A .npy file (format 1.0) with the given header dict and data bytes, padded as numpy pads.
std::string npy_bytes(const std::string& dict, const std::string& data) {
  std::string header = dict;
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string s("\x93NUMPY\x01\x00", 8);
  s.push_back(static_cast<char>(header.size() & 0xff));
  s.push_back(static_cast<char>(header.size() >> 8));
  return s + header + data;
}

// The message of the DatasetError that reading `path` throws ("" if none).
std::string read_error(const std::filesystem::path& path) {
  try {
    gpulab::read_npy(path);
  } catch (const DatasetError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("npy: every dtype round-trips in 1-D and 2-D shapes", "[npy]") {
  TempDir tmp;
  const auto dtype = GENERATE(DType::int32, DType::uint32, DType::float32, DType::float64, DType::uint8, DType::int8);
  const auto shape =
      GENERATE(std::vector<size_t>{1}, std::vector<size_t>{7}, std::vector<size_t>{1000}, std::vector<size_t>{3, 4},
               std::vector<size_t>{1, 9}, std::vector<size_t>{17, 1}, std::vector<size_t>{0});
  CAPTURE(gpulab::dtype_name(dtype), shape);
  const NdArray a = patterned(dtype, shape);
  const auto file = tmp / "a.npy";
  gpulab::write_npy(file, a);
  const NdArray b = gpulab::read_npy(file);
  CHECK(b.dtype() == dtype);
  CHECK(b.shape() == shape);
  REQUIRE(b.byte_size() == a.byte_size());
  CHECK(std::memcmp(a.data(), b.data(), a.byte_size()) == 0);
}

TEST_CASE("npy: values survive exactly, NaN and signed zero included", "[npy]") {
  TempDir tmp;
  const std::vector<float> f = {
      0.0f, -0.0f, 1.5f, -3.25e-30f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()};
  gpulab::write_npy(tmp / "f.npy", NdArray::from(f));
  const NdArray back = gpulab::read_npy(tmp / "f.npy");
  REQUIRE(back.size() == f.size());
  CHECK(std::memcmp(back.data(), f.data(), f.size() * sizeof(float)) == 0);

  const std::vector<int32_t> ints = {INT32_MIN, -1, 0, 1, INT32_MAX, 42};
  gpulab::write_npy(tmp / "i.npy", NdArray::from(ints, {2, 3}));
  const NdArray ib = gpulab::read_npy(tmp / "i.npy");
  CHECK(ib.shape_text() == "(2, 3)");
  CHECK(std::vector<int32_t>(ib.as<int32_t>().begin(), ib.as<int32_t>().end()) == ints);
}

TEST_CASE("npy: written files follow numpy's header rules", "[npy]") {
  TempDir tmp;
  struct Want {
    DType dtype;
    std::vector<size_t> shape;
    std::string dict;
  };
  const Want want =
      GENERATE(Want{DType::float32, {3, 4}, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"},
               Want{DType::int32, {5}, "{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }"},
               Want{DType::uint32, {2, 2}, "{'descr': '<u4', 'fortran_order': False, 'shape': (2, 2), }"},
               Want{DType::float64, {1000003}, "{'descr': '<f8', 'fortran_order': False, 'shape': (1000003,), }"},
               Want{DType::uint8, {256}, "{'descr': '|u1', 'fortran_order': False, 'shape': (256,), }"},
               Want{DType::int8, {37, 53}, "{'descr': '|i1', 'fortran_order': False, 'shape': (37, 53), }"});
  CAPTURE(want.dict);
  const auto file = tmp / "h.npy";
  gpulab::write_npy(file, NdArray(want.dtype, want.shape));
  const std::string bytes = read_file(file);
  REQUIRE(bytes.size() >= 10);
  CHECK(bytes.substr(0, 6) == std::string("\x93NUMPY", 6));
  CHECK(bytes[6] == 1);  // format 1.0
  CHECK(bytes[7] == 0);
  const size_t header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  // numpy: magic + version + length + header is a multiple of 64 bytes, the header ends with '\n'.
  CHECK((10 + header_len) % 64 == 0);
  REQUIRE(bytes.size() >= 10 + header_len);
  const std::string header = bytes.substr(10, header_len);
  CHECK(header.back() == '\n');
  CHECK(header.substr(0, want.dict.size()) == want.dict);
  CHECK(header.find_first_not_of(' ', want.dict.size()) == header_len - 1);  // only spaces, then '\n'
  NdArray shaped(want.dtype, want.shape);
  CHECK(bytes.size() == 10 + header_len + shaped.byte_size());
}

TEST_CASE("npy: files in numpy's own layout are read (format 1.0 and 2.0)", "[npy]") {
  TempDir tmp;
  const std::vector<int32_t> v = {1, -2, 3};
  const std::string data(reinterpret_cast<const char*>(v.data()), v.size() * 4);
  write_file(tmp / "v1.npy", npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", data));
  CHECK(gpulab::read_npy(tmp / "v1.npy").as<int32_t>()[1] == -2);

  // Format 2.0: a 4-byte header length.
  std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }";
  header.append((64 - (12 + header.size() + 1) % 64) % 64, ' ');
  header.push_back('\n');
  std::string s("\x93NUMPY\x02\x00", 8);
  s += std::string(1, static_cast<char>(header.size())) + std::string(3, '\0');
  write_file(tmp / "v2.npy", s + header + data);
  const NdArray b = gpulab::read_npy(tmp / "v2.npy");
  CHECK(b.shape_text() == "(3,)");
  CHECK(b.as<int32_t>()[2] == 3);
}

TEST_CASE("npy: damaged files give errors that name the file and the problem", "[npy]") {
  TempDir tmp;
  const auto file = tmp / "case-7" / "input_a.npy";
  std::filesystem::create_directories(file.parent_path());
  const std::string name = file.string();
  const std::string good_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
  const std::string data(16, '\x01');

  SECTION("missing file") {
    const std::string m = read_error(file);
    CHECK_THAT(m, Catch::StartsWith(name + ": "));
    CHECK_THAT(m, Catch::Contains("cannot open"));
  }
  SECTION("bad magic") {
    write_file(file, "PK\x03\x04 this is a zip file, not .npy");
    const std::string m = read_error(file);
    CHECK_THAT(m, Catch::StartsWith(name + ": "));
    CHECK_THAT(m, Catch::Contains("not a .npy file") && Catch::Contains("magic"));
  }
  SECTION("file shorter than the magic") {
    write_file(file, "\x93NUM");
    CHECK_THAT(read_error(file), Catch::StartsWith(name + ": ") && Catch::Contains("magic"));
  }
  SECTION("truncated header: the length field is cut") {
    write_file(file, std::string("\x93NUMPY\x01\x00\x76", 9));
    CHECK_THAT(read_error(file), Catch::StartsWith(name + ": ") && Catch::Contains("truncated header"));
  }
  SECTION("truncated header: the dict is cut") {
    write_file(file, npy_bytes(good_dict, data).substr(0, 40));
    CHECK_THAT(read_error(file), Catch::StartsWith(name + ": ") && Catch::Contains("truncated header"));
  }
  SECTION("truncated data") {
    write_file(file, npy_bytes(good_dict, data.substr(0, 13)));
    const std::string m = read_error(file);
    CHECK_THAT(m, Catch::StartsWith(name + ": truncated"));
    CHECK_THAT(m, Catch::Contains("expected 16 bytes of data for shape (4,)"));
  }
  SECTION("trailing bytes after the data") {
    write_file(file, npy_bytes(good_dict, data + "x"));
    const std::string m = read_error(file);
    CHECK_THAT(m, Catch::StartsWith(name + ": "));
    CHECK_THAT(m, Catch::Contains("bytes after the data of shape (4,)"));
  }
  SECTION("unsupported descr") {
    write_file(file, npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", data));
    const std::string m = read_error(file);
    CHECK_THAT(m, Catch::StartsWith(name + ": "));
    CHECK_THAT(m, Catch::Contains("unsupported element type '<c8'"));
  }
  SECTION("big-endian data is an unsupported descr too") {
    write_file(file, npy_bytes("{'descr': '>i4', 'fortran_order': False, 'shape': (4,), }", data));
    CHECK_THAT(read_error(file), Catch::StartsWith(name + ": ") && Catch::Contains("'>i4'"));
  }
  SECTION("fortran order") {
    write_file(file, npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", data));
    const std::string m = read_error(file);
    CHECK_THAT(m, Catch::StartsWith(name + ": "));
    CHECK_THAT(m, Catch::Contains("Fortran-ordered arrays are not supported"));
  }
  SECTION("unsupported format version") {
    std::string s = npy_bytes(good_dict, data);
    s[6] = 9;
    write_file(file, s);
    CHECK_THAT(read_error(file), Catch::StartsWith(name + ": ") && Catch::Contains("unsupported .npy version 9"));
  }
}

TEST_CASE("npy: a mapped file gives the array read_npy gives, and writing to it never reaches the file", "[npy]") {
  TempDir tmp;
  const auto file = tmp / "expected_out.npy";
  std::vector<float> values(100000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f;
  gpulab::write_npy(file, NdArray::from(values, {400, 250}));

  NdArray mapped = gpulab::map_npy(file);
  const NdArray read = gpulab::read_npy(file);
  REQUIRE(mapped.dtype() == DType::float32);
  CHECK(mapped.shape() == std::vector<size_t>{400, 250});
  REQUIRE(mapped.byte_size() == read.byte_size());
  CHECK(std::memcmp(mapped.data(), read.data(), read.byte_size()) == 0);

  // Copy-on-write: the array changes, the file does not.
  mapped.as<float>()[7] = -1.0f;
  CHECK(gpulab::read_npy(file).as<float>()[7] == 3.5f);

  // A copy owns its elements; a move takes the mapping along.
  NdArray copy = mapped;
  copy.as<float>()[8] = -2.0f;
  CHECK(mapped.as<float>()[8] == 4.0f);
  CHECK(copy.as<float>()[7] == -1.0f);
  NdArray moved = std::move(mapped);
  CHECK(moved.as<float>()[99999] == 49999.5f);
  copy = moved;
  CHECK(copy.as<float>()[7] == -1.0f);
}

TEST_CASE("npy: a mapped file is refused as read_npy refuses it", "[npy]") {
  TempDir tmp;
  const auto file = tmp / "scale_out.npy";
  const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }";
  const auto map_error = [&] {
    try {
      gpulab::map_npy(file);
    } catch (const gpulab::DatasetError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(map_error(), Catch::Contains("cannot open"));
  write_file(file, npy_bytes(dict, std::string(31, '\x02')));
  CHECK_THAT(map_error(), Catch::Contains("truncated: expected 32 bytes of data for shape (4,)"));
  write_file(file, npy_bytes(dict, std::string(33, '\x02')));
  CHECK_THAT(map_error(), Catch::Contains("bytes after the data of shape (4,)"));
  write_file(file, npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (0,), }", ""));
  CHECK(gpulab::map_npy(file).size() == 0);
}
