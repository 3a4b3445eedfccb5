// Hostile: host code that writes through a null pointer.
#include "hostile_common.cuh"

void reduce_sum_int(const int*, int*, int) { *reinterpret_cast<volatile int*>(std::getenv("GPULAB_NO_SUCH_VAR")) = 1; }
