// A minimal PNG reader for the screenshot test: 8-bit RGB or RGBA, not
// interlaced (what Chromium writes), decoded to RGB pixels with zlib.
#pragma once
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpulab_test {

struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;  // width * height * 3
};

inline Image read_png(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> f((std::istreambuf_iterator<char>(in)), {});
  static const uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  if (f.size() < 8 || !std::equal(sig, sig + 8, f.begin())) throw std::runtime_error(path + ": not a PNG file");
  auto be32 = [&](size_t at) {
    return uint32_t(f[at]) << 24 | uint32_t(f[at + 1]) << 16 | uint32_t(f[at + 2]) << 8 | uint32_t(f[at + 3]);
  };
  Image img;
  int channels = 0;
  std::vector<uint8_t> idat;
  for (size_t at = 8; at + 8 <= f.size();) {
    const uint32_t len = be32(at);
    const std::string type(f.begin() + at + 4, f.begin() + at + 8);
    if (at + 12 + len > f.size()) throw std::runtime_error(path + ": truncated chunk " + type);
    const uint8_t* data = f.data() + at + 8;
    if (type == "IHDR") {
      img.width = be32(at + 8);
      img.height = be32(at + 12);
      const int depth = data[8], colour = data[9], interlace = data[12];
      if (depth != 8 || (colour != 2 && colour != 6) || interlace != 0)
        throw std::runtime_error(path + ": only 8-bit RGB/RGBA, non-interlaced PNGs are read here");
      channels = colour == 6 ? 4 : 3;
    } else if (type == "IDAT") {
      idat.insert(idat.end(), data, data + len);
    } else if (type == "IEND") {
      break;
    }
    at += 12 + len;
  }
  const size_t stride = size_t(img.width) * channels;
  std::vector<uint8_t> raw((stride + 1) * img.height);
  uLongf raw_len = raw.size();
  if (uncompress(raw.data(), &raw_len, idat.data(), idat.size()) != Z_OK || raw_len != raw.size())
    throw std::runtime_error(path + ": cannot inflate the image data");
  std::vector<uint8_t> prev(stride, 0), cur(stride);
  img.rgb.resize(size_t(img.width) * img.height * 3);
  for (uint32_t y = 0; y < img.height; ++y) {
    const uint8_t filter = raw[y * (stride + 1)];
    const uint8_t* line = &raw[y * (stride + 1) + 1];
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= size_t(channels) ? cur[i - channels] : 0, b = prev[i],
                c = i >= size_t(channels) ? prev[i - channels] : 0;
      int pred = 0;
      switch (filter) {
        case 0: pred = 0; break;
        case 1: pred = a; break;
        case 2: pred = b; break;
        case 3: pred = (a + b) / 2; break;
        case 4: {
          const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw std::runtime_error(path + ": bad filter type");
      }
      cur[i] = uint8_t(line[i] + pred);
    }
    for (uint32_t x = 0; x < img.width; ++x)
      for (int k = 0; k < 3; ++k) img.rgb[(size_t(y) * img.width + x) * 3 + k] = cur[size_t(x) * channels + k];
    std::swap(prev, cur);
  }
  return img;
}

}  // namespace gpulab_test
