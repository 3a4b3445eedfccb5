// Idiom: iostream debugging: std::cout and std::cerr with manipulators, a string stream to
// build a message, std::to_string, and a copy of the output to the host to print it.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

__global__ void fill(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

void reduce_sum_int(const int* in, int* out, int n) {
  fill<<<(n + 127) / 128, 128>>>(out, 1);
  std::vector<int> host(4);
  cudaMemcpy(host.data(), in, sizeof(int) * std::min(n, 4), cudaMemcpyDeviceToHost);
  std::ostringstream message;
  message << "first values:";
  for (int v : host) message << ' ' << std::setw(4) << v;
  std::cout << message.str() << std::endl;
  std::cerr << "n = " << std::to_string(n) << ", " << std::fixed << std::setprecision(2) << 1.5 << '\n';
}
