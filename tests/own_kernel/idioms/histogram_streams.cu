// Lab: histogram. Legitimate: the input split over two streams, each counting into bins of its own
// from cudaMallocAsync, added into the output by a last kernel; nothing copied to the host. Every
// correctness point kept.
template <typename T, typename Bin>
__global__ void count(const T* data, size_t n, unsigned int* bins, Bin bin) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const int b = bin(data[i]);
    if (b >= 0) atomicAdd(&bins[b], 1u);
  }
}

__global__ void add_bins(unsigned int* out, const unsigned int* a, const unsigned int* b, int nbins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nbins) out[i] += a[i] + b[i];
}

template <typename T, typename Bin>
void two_streams(const T* data, unsigned int* bins, size_t n, int nbins, Bin bin) {
  cudaStream_t streams[2];
  unsigned int* partial[2];
  const size_t half = n / 2;
  for (int s = 0; s < 2; ++s) {
    cudaStreamCreate(&streams[s]);
    cudaMallocAsync(&partial[s], nbins * sizeof(unsigned int), streams[s]);
    cudaMemsetAsync(partial[s], 0, nbins * sizeof(unsigned int), streams[s]);
    const size_t begin = s == 0 ? 0 : half, len = s == 0 ? half : n - half;
    if (len) count<<<64, 256, 0, streams[s]>>>(data + begin, len, partial[s], bin);
  }
  for (int s = 0; s < 2; ++s) cudaStreamSynchronize(streams[s]);
  add_bins<<<(nbins + 255) / 256, 256>>>(bins, partial[0], partial[1], nbins);
  cudaDeviceSynchronize();
  for (int s = 0; s < 2; ++s) {
    cudaFreeAsync(partial[s], streams[s]);
    cudaStreamSynchronize(streams[s]);
    cudaStreamDestroy(streams[s]);
  }
}

struct LetterBin {
  __device__ int operator()(char c) const { return c >= 'a' && c <= 'z' ? (c - 'a') / 4 : -1; }
};
struct ByteBin {
  __device__ int operator()(unsigned char c) const { return c; }
};

void histogram_text(const char* text, unsigned int* bins, size_t n) { two_streams(text, bins, n, 7, LetterBin{}); }
void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  two_streams(data, bins, n, 256, ByteBin{});
}
