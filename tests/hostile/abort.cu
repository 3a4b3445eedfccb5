// Hostile: host code that calls abort().
#include "hostile_common.cuh"

void reduce_sum_int(const int*, int*, int) { std::abort(); }
