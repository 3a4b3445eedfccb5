// The host-side check of saxpy_main.cu, compiled from check.cpp.
#pragma once
#include <vector>

int count_wrong_saxpy(const std::vector<float>& x, const std::vector<float>& y, float a, float y0);
