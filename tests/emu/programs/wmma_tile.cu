// A tensor-core tile product with the warp matrix functions (<mma.h>, nvcuda::wmma), which the
// emulator does not provide: `gpulab run` must say so in words, naming the header and the
// library, and point to the GPU backend. On a GPU it computes one 16 x 16 x 16 product.
#include <cstdio>

#include <mma.h>

__global__ void one_tile(const half* a, const half* b, float* c) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::col_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> fc;
  nvcuda::wmma::fill_fragment(fc, 0.0f);
  nvcuda::wmma::load_matrix_sync(fa, a, 16);
  nvcuda::wmma::load_matrix_sync(fb, b, 16);
  nvcuda::wmma::mma_sync(fc, fa, fb, fc);
  nvcuda::wmma::store_matrix_sync(c, fc, 16, nvcuda::wmma::mem_row_major);
}

int main() {
  half *a, *b;
  float* c;
  cudaMallocManaged(&a, 256 * sizeof(half));
  cudaMallocManaged(&b, 256 * sizeof(half));
  cudaMallocManaged(&c, 256 * sizeof(float));
  for (int i = 0; i < 256; ++i) a[i] = b[i] = __float2half(1.0f);
  one_tile<<<1, 32>>>(a, b, c);
  cudaDeviceSynchronize();
  std::printf("c[0] = %.1f (16 expected)\n", c[0]);
  return 0;
}
