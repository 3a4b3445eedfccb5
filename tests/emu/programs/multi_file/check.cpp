// Host C++ compiled as its own translation unit and linked with saxpy_main.cu.
#include "check.hpp"

#include <cmath>

int count_wrong_saxpy(const std::vector<float>& x, const std::vector<float>& y, float a, float y0) {
  int wrong = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::fabs(y[i] - (a * x[i] + y0)) > 1e-4f) ++wrong;
  }
  return wrong;
}
