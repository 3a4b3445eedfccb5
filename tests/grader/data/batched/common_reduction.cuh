// A correct reduction kernel the submissions of this folder share (each adds one behaviour that
// depends on the process it runs in): one atomicAdd per block of a shared-memory tree.
template <typename T>
__global__ void block_sum(const T* in, T* out, int n) {
  __shared__ T tile[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) tile[threadIdx.x] += tile[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, tile[0]);
}

template <typename T>
void sum_on_gpu(const T* in, T* out, int n) {
  block_sum<<<(n + 255) / 256, 256>>>(in, out, n);
}
