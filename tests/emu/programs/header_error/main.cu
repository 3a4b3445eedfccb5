// Includes broken.cuh, whose line 8 does not compile.
#include "broken.cuh"

int main() {
  double_all<<<1, 64>>>(nullptr);
  return 0;
}
