// Conformance: the rarer copy forms and memory pools, as CUDA 13 has them: cudaMemcpy3DPeer and
// its Async form between the one device and itself (to and from page-locked host memory too, the
// pointers deciding the direction; pageable host memory refused, as on a GPU), cudaMemcpyBatchAsync (CUDA 12.8), pool access for the device, and
// pools located in host memory (page-locked host memory the host reads directly) or of managed
// memory. Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp).
#include <catch2/catch.hpp>

#include <vector>

namespace {
__global__ void fill(int* p, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value + i;
}

cudaMemcpy3DPeerParms one_row(void* dst, const void* src, size_t bytes) {
  cudaMemcpy3DPeerParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), bytes, bytes, 1);
  p.dstPtr = make_cudaPitchedPtr(dst, bytes, bytes, 1);
  p.extent = make_cudaExtent(bytes, 1, 1);
  return p;
}
}  // namespace

TEST_CASE("copy forms: cudaMemcpy3DPeer copies between device and page-locked host memory on device 0") {
  const int n = 1000;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  fill<<<(n + 255) / 256, 256>>>(d, n, 7);
  int* h = nullptr;
  REQUIRE(cudaMallocHost(&h, n * sizeof(int)) == cudaSuccess);
  cudaMemcpy3DPeerParms p = one_row(h, d, n * sizeof(int));
  CHECK(cudaMemcpy3DPeer(&p) == cudaSuccess);
  CHECK(h[0] == 7);
  CHECK(h[n - 1] == 7 + n - 1);
  int* back = nullptr;
  REQUIRE(cudaMallocHost(&back, n * sizeof(int)) == cudaSuccess);
  cudaStream_t s;
  cudaStreamCreate(&s);
  p = one_row(back, d, n * sizeof(int));
  CHECK(cudaMemcpy3DPeerAsync(&p, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(back[500] == 507);
  p.dstDevice = 1;  // a device there is not
  CHECK(cudaMemcpy3DPeer(&p) == cudaErrorInvalidDevice);
  cudaGetLastError();
  // Pageable host memory on either side is refused, as by cudaMemcpyPeer (recorded on an H200:
  // tests/gpu/expected/probe_copy_forms.txt), and nothing is copied.
  std::vector<int> pageable(n, 0);
  p = one_row(pageable.data(), d, n * sizeof(int));
  CHECK(cudaMemcpy3DPeer(&p) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(pageable[0] == 0);
  p = one_row(d, pageable.data(), n * sizeof(int));
  CHECK(cudaMemcpy3DPeer(&p) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaStreamDestroy(s);
  cudaFreeHost(back);
  cudaFreeHost(h);
  cudaFree(d);
}

// Long enough that a copy not ordered after it would read the allocation before it is written.
__global__ void slow_fill(int* a, int n, int base) {
  volatile int spin = 0;
  for (int k = 0; k < 20000; ++k) spin = spin + 1;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = base + i + (spin == 20000 ? 0 : 1);
}

TEST_CASE("copy forms: a copy into pageable memory on a blocking stream follows the legacy stream's kernel") {
  const int n = 256;
  int* a = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);  // blocking: ordered after the legacy default stream's earlier work
  slow_fill<<<1, n>>>(a, n, 7);
  std::vector<int> h(n, 0);
  CHECK(cudaMemcpyAsync(h.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(h[0] == 7);
  CHECK(h[n - 1] == 7 + n - 1);
  cudaStreamDestroy(s);
  cudaFree(a);
}

TEST_CASE("copy forms: cudaMemcpyBatchAsync makes every copy of the batch, in both directions") {
  const int n = 256;
  int *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&b, n * sizeof(int));
  fill<<<1, n>>>(a, n, 100);
  std::vector<int> h(n, 0), up(n, 5);
  cudaStream_t s;
  cudaStreamCreate(&s);
  void* dsts[2] = {h.data(), b};
  const void* srcs[2] = {a, up.data()};
  size_t sizes[2] = {n * sizeof(int), n * sizeof(int)};
  cudaMemcpyAttributes attrs{};
  attrs.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  size_t index = 0;
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attrs, &index, 1, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(h[3] == 103);
  std::vector<int> check(n, 0);
  cudaMemcpy(check.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost);
  CHECK(check[9] == 5);
  attrs.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
  CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, 2, &attrs, &index, 1, s) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaStreamDestroy(s);
  cudaFree(a);
  cudaFree(b);
}

TEST_CASE("copy forms: a pool in host memory gives page-locked memory a kernel writes and the host reads") {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeHost;
  props.location.id = 0;
  cudaMemPool_t pool;
  REQUIRE(cudaMemPoolCreate(&pool, &props) == cudaSuccess);
  cudaMemAccessDesc access{};
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = 0;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(pool, &access, 1) == cudaSuccess);
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  cudaMemLocation device{cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemPoolGetAccess(&flags, pool, &device) == cudaSuccess);
  CHECK(flags == cudaMemAccessFlagsProtReadWrite);
  const int n = 64;
  int* p = nullptr;
  REQUIRE(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), n * sizeof(int), pool, 0) == cudaSuccess);
  cudaPointerAttributes a{};
  CHECK(cudaPointerGetAttributes(&a, p) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeHost);
  fill<<<1, n>>>(p, n, 40);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(p[2] == 42);  // the host reads it directly
  CHECK(cudaFreeAsync(p, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemPoolDestroy(pool) == cudaSuccess);
}

TEST_CASE("copy forms: a pool of managed memory gives managed memory") {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypeManaged;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  REQUIRE(cudaMemPoolCreate(&pool, &props) == cudaSuccess);
  int* p = nullptr;
  REQUIRE(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), 64 * sizeof(int), pool, 0) == cudaSuccess);
  cudaPointerAttributes a{};
  CHECK(cudaPointerGetAttributes(&a, p) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeManaged);
  fill<<<1, 64>>>(p, 64, 1);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(p[63] == 64);
  cudaFreeAsync(p, 0);
  cudaDeviceSynchronize();
  cudaMemPoolDestroy(pool);
}
