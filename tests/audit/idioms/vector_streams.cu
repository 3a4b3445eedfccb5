// Idiom: std::vector and std::string on the host, CUDA streams and events (timing one's own
// kernel), asynchronous copies, a host-side lambda, std::sort and std::accumulate for
// debugging, new[] and delete[], and a global std::vector.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

std::vector<float> debug_copy;

__global__ void scale(const float* in, float* out, float k, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = k * in[i];
}

void reduce_sum_float(const float* in, float* out, int n) {
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const auto blocks = [](int count, int per_block) { return (count + per_block - 1) / per_block; };
  cudaEventRecord(start, stream);
  scale<<<blocks(n, 256), 256, 0, stream>>>(in, out, 1.0f, 1);
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  debug_copy.assign(static_cast<size_t>(std::min(n, 64)), 0.0f);
  cudaMemcpyAsync(debug_copy.data(), in, debug_copy.size() * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  std::vector<float> sorted = debug_copy;
  float* scratch = new float[sorted.size() + 1];  // new[] and delete[]
  scratch[0] = 0;
  delete[] scratch;
  std::sort(sorted.begin(), sorted.end(), [](float a, float b) { return a > b; });
  const float total = std::accumulate(sorted.begin(), sorted.end(), 0.0f);
  const std::string label = "kernel took " + std::to_string(ms) + " ms";
  std::printf("%s, first values sum to %f\n", label.c_str(), total);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
}
