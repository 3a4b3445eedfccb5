/* C, compiled as C (a C++ compiler rejects the implicit conversion from void* below). */
#include <stdlib.h>

double checksum(const float* values, int n) {
  double* partial = malloc(sizeof(double));
  double sum;
  int i;
  *partial = 0.0;
  for (i = 0; i < n; ++i) *partial += values[i];
  sum = *partial;
  free(partial);
  return sum;
}
