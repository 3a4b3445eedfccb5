// Host-only summary statistics, compiled from host_stats.cpp as plain C++.
#pragma once

struct Stats {
  float sum;
  float min;
  float max;
};

Stats summarize(const float* values, int n);
