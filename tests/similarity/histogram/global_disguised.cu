// Test corpus: a disguised copy of reference/histogram/progression/global_atomics.cu (names changed,
// comments removed, layout and order changed, an unused counter and a bounds assertion added).
#include <cuda_runtime.h>
#include <cstddef>
#define TPB 256
#define CAP 1024
static unsigned int blocksFor(size_t count) { size_t nb = (count + TPB - 1) / TPB; return (unsigned int)(nb > CAP ? CAP : nb); }
__global__ void byteHist(const unsigned char* in, unsigned int* out, size_t count) {
    for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < count; e += (size_t)blockDim.x * gridDim.x) atomicAdd(&out[in[e]], 1u);
}
__global__ void textHist(const char* in, unsigned int* out, size_t count) {
    unsigned int seen = 0;
    const size_t jump = (size_t)blockDim.x * gridDim.x;
    size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    while (e < count) { const int c = (unsigned char)in[e] - 'a'; if (c >= 0 && c < 26) atomicAdd(&out[c / 4], 1u); e += jump; seen++; }
    if (seen > count) out[0] = 0;
}
void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) { byteHist<<<blocksFor(n), TPB>>>(data, bins, n); }
void histogram_text(const char* text, unsigned int* bins, size_t n) { textHist<<<blocksFor(n), TPB>>>(text, bins, n); }
