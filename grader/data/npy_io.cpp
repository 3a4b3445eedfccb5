// .npy encoding: magic, version, little-endian header length, a Python dict
// header ({'descr': '<f4', 'fortran_order': False, 'shape': (n,), }), data.
#include "npy_io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <regex>
#include <vector>

namespace gpulab {
namespace {
const char* descr(DType t) {
  switch (t) {
    case DType::int32: return "<i4";
    case DType::uint32: return "<u4";
    case DType::float32: return "<f4";
    case DType::float64: return "<f8";
    case DType::uint8: return "|u1";
    case DType::int8: return "|i1";
  }
  return "|u1";
}
DType from_descr(const std::string& d, const std::string& file) {
  if (d == "<i4") return DType::int32;
  if (d == "<u4") return DType::uint32;
  if (d == "<f4") return DType::float32;
  if (d == "<f8") return DType::float64;
  if (d == "|u1" || d == "<u1") return DType::uint8;
  if (d == "|i1" || d == "<i1") return DType::int8;
  throw DatasetError(file + ": unsupported element type '" + d +
                     "' (expected int32, uint32, float32, float64, uint8 or int8)");
}
}  // namespace

namespace {
// What a .npy file holds and where its data starts, checked against the file's size, so that a
// header claiming a huge shape is refused before anything is allocated or mapped.
struct NpyLayout {
  DType dtype = DType::uint8;
  std::vector<size_t> shape;
  size_t data_offset = 0;
  size_t data_bytes = 0;
};

NpyLayout read_layout(std::ifstream& in, const std::string& file) {
  char magic[8];
  if (!in.read(magic, 8) || std::string(magic, 6) != "\x93NUMPY") {
    throw DatasetError(file + ": not a .npy file (bad magic bytes)");
  }
  const int major = static_cast<unsigned char>(magic[6]);
  size_t header_len = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) throw DatasetError(file + ": truncated header");
    header_len = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) throw DatasetError(file + ": truncated header");
    header_len = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<size_t>(b[3]) << 24);
  } else {
    throw DatasetError(file + ": unsupported .npy version " + std::to_string(major));
  }
  std::string header(header_len, '\0');
  if (!in.read(header.data(), static_cast<std::streamsize>(header_len)))
    throw DatasetError(file + ": truncated header");

  std::smatch m;
  static const std::regex descr_re(R"('descr'\s*:\s*'([^']+)')");
  static const std::regex order_re(R"('fortran_order'\s*:\s*(True|False))");
  static const std::regex shape_re(R"('shape'\s*:\s*\(([^)]*)\))");
  if (!std::regex_search(header, m, descr_re)) throw DatasetError(file + ": header has no 'descr'");
  NpyLayout layout;
  layout.dtype = from_descr(m[1], file);
  if (std::regex_search(header, m, order_re) && m[1] == "True") {
    throw DatasetError(file + ": Fortran-ordered arrays are not supported; save with numpy.ascontiguousarray");
  }
  if (!std::regex_search(header, m, shape_re)) throw DatasetError(file + ": header has no 'shape'");
  const std::string dims = m[1];
  static const std::regex num_re(R"(\d+)");
  for (std::sregex_iterator it(dims.begin(), dims.end(), num_re), end; it != end; ++it) {
    layout.shape.push_back(std::stoull(it->str()));
  }
  const auto data_at = in.tellg();
  in.seekg(0, std::ios::end);
  const auto file_end = in.tellg();
  in.seekg(data_at);
  size_t elements = 1;
  for (size_t d : layout.shape) elements *= d;
  layout.data_bytes = elements * dtype_size(layout.dtype);
  if (data_at < 0 || file_end < data_at || static_cast<size_t>(file_end - data_at) < layout.data_bytes) {
    throw DatasetError(file + ": truncated: expected " + std::to_string(layout.data_bytes) +
                       " bytes of data for shape (" + dims +
                       "), the file is shorter (regenerate it with `gpulab datagen`)");
  }
  if (static_cast<size_t>(file_end - data_at) > layout.data_bytes) {
    throw DatasetError(file + ": has bytes after the data of shape (" + dims + ") (corrupt file?)");
  }
  layout.data_offset = static_cast<size_t>(data_at);
  return layout;
}
}  // namespace

NdArray read_npy(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DatasetError(file + ": cannot open (missing file?)");
  const NpyLayout layout = read_layout(in, file);
  // Read straight into storage that is not zero-filled first.
  NdArray a = NdArray::uninitialized(layout.dtype, layout.shape);
  if (!in.read(reinterpret_cast<char*>(a.data()), static_cast<std::streamsize>(a.byte_size()))) {
    throw DatasetError(file + ": truncated: expected " + std::to_string(a.byte_size()) + " bytes of data for shape " +
                       a.shape_text() + ", the file is shorter (regenerate it with `gpulab datagen`)");
  }
  return a;
}

NdArray map_npy(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DatasetError(file + ": cannot open (missing file?)");
  const NpyLayout layout = read_layout(in, file);
  in.close();
  const size_t length = layout.data_offset + layout.data_bytes;
  if (layout.data_bytes == 0) return read_npy(path);
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw DatasetError(file + ": cannot open (missing file?)");
  struct stat st {};
  void* base = MAP_FAILED;
  // The same size as when the header was checked: a file that changed in between is read instead.
  if (::fstat(fd, &st) == 0 && static_cast<size_t>(st.st_size) == length) {
    base = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  }
  ::close(fd);
  if (base == MAP_FAILED) return read_npy(path);
  std::shared_ptr<void> keep(base, [length](void* p) { ::munmap(p, length); });
  return NdArray::borrowed(layout.dtype, layout.shape, static_cast<unsigned char*>(base) + layout.data_offset,
                           std::move(keep));
}

void write_npy(const std::filesystem::path& path, const NdArray& a) {
  std::string shape = "(";
  for (size_t d : a.shape()) shape += std::to_string(d) + ", ";
  if (a.shape().size() > 1) shape.resize(shape.size() - 2);
  if (a.shape().size() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header =
      std::string("{'descr': '") + descr(a.dtype()) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::ofstream out(path, std::ios::binary);
  if (!out) throw DatasetError(path.string() + ": cannot create");
  out.write("\x93NUMPY\x01\x00", 8);
  const unsigned char len[2] = {static_cast<unsigned char>(header.size() & 0xff),
                                static_cast<unsigned char>(header.size() >> 8)};
  out.write(reinterpret_cast<const char*>(len), 2);
  out << header;
  out.write(reinterpret_cast<const char*>(a.data()), static_cast<std::streamsize>(a.byte_size()));
  if (!out) throw DatasetError(path.string() + ": write failed (disk full?)");
}

}  // namespace gpulab
