// Conformance: atomic functions on global and shared memory, with 64 blocks of
// 256 threads contending. atomicAdd (int, unsigned, unsigned long long, float,
// double), atomicSub, atomicInc/atomicDec with CUDA's wrap-around definitions
// (every returned old value counted), atomicMin/Max (int, unsigned, long long),
// atomicExch (int and float), atomicCAS and operations built from a CAS loop,
// atomicAnd/Or/Xor. Every final value is exact.
// Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp), and every
// case passes on an H100 with CUDA 13.0 (driver 580).
#include <catch2/catch.hpp>
#include <algorithm>
#include <vector>

namespace {

constexpr int kBlocks = 64;
constexpr int kThreads = 256;
constexpr int kTotal = kBlocks * kThreads;  // 16384

struct Sums {
  int add_one;
  int add_index;
  int sub_three;
  unsigned add_unsigned;
  unsigned long long add_ull;
  float add_float;
  float add_half;
  double add_double;
  double add_quarter;
};

__global__ void contended_adds(Sums* s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&s->add_one, 1);
  atomicAdd(&s->add_index, i);
  atomicSub(&s->sub_three, 3);
  atomicAdd(&s->add_unsigned, static_cast<unsigned>(i));
  atomicAdd(&s->add_ull, (1ull << 32) + static_cast<unsigned long long>(i));
  atomicAdd(&s->add_float, 1.0f);
  atomicAdd(&s->add_half, 0.5f);
  atomicAdd(&s->add_double, static_cast<double>(i));
  atomicAdd(&s->add_quarter, 0.25);
}

// Every thread increments (or decrements) with limit 99 and counts the old value it saw.
__global__ void wrapping_counters(unsigned* inc, unsigned* dec, unsigned* inc_seen, unsigned* dec_seen) {
  const unsigned old_inc = atomicInc(inc, 99u);
  const unsigned old_dec = atomicDec(dec, 99u);
  atomicAdd(&inc_seen[old_inc < 100 ? old_inc : 100], 1u);
  atomicAdd(&dec_seen[old_dec < 100 ? old_dec : 100], 1u);
}

// One thread per case: returns old, leaves the new value in place.
__global__ void inc_dec_edges(unsigned* values, const unsigned* limits, unsigned* olds, int cases) {
  const int c = threadIdx.x;
  if (c < cases) olds[c] = atomicInc(&values[c], limits[c]);
  else if (c < 2 * cases) olds[c] = atomicDec(&values[c], limits[c]);
}

__host__ __device__ int int_key(int i) { return (i * 7919) % kTotal - 8000; }
__host__ __device__ unsigned unsigned_key(int i) { return static_cast<unsigned>(i) * 2654435761u; }
__host__ __device__ long long ll_key(int i) { return (static_cast<long long>(i) - 9000) * 1000000007LL; }

struct Extremes {
  int imin, imax;
  unsigned umin, umax;
  long long lmin, lmax;
};

__global__ void contended_min_max(Extremes* e) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMin(&e->imin, int_key(i));
  atomicMax(&e->imax, int_key(i));
  atomicMin(&e->umin, unsigned_key(i));
  atomicMax(&e->umax, unsigned_key(i));
  atomicMin(&e->lmin, ll_key(i));
  atomicMax(&e->lmax, ll_key(i));
}

__global__ void contended_exchange(int* slot, int* olds, float* fslot, float* folds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  olds[i] = atomicExch(slot, i);
  folds[i] = atomicExch(fslot, static_cast<float>(i));
}

// Built from atomicCAS: a saturating increment and a double addition (the programming guide's recipe).
__device__ int saturating_increment(int* address, int cap) {
  int old = *address, assumed;
  do {
    assumed = old;
    if (assumed >= cap) return assumed;
    old = atomicCAS(address, assumed, assumed + 1);
  } while (assumed != old);
  return old;
}

__device__ double cas_add_double(double* address, double val) {
  unsigned long long* as_ull = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *as_ull, assumed;
  do {
    assumed = old;
    old = atomicCAS(as_ull, assumed, __double_as_longlong(val + __longlong_as_double(static_cast<long long>(assumed))));
  } while (assumed != old);
  return __longlong_as_double(static_cast<long long>(old));
}

__global__ void cas_operations(int* capped, double* dsum, int* cas_winners, int* claimed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  saturating_increment(capped, 1000);
  cas_add_double(dsum, static_cast<double>(i) * 0.5);
  // Exactly one thread wins each slot.
  if (atomicCAS(&claimed[i % 100], -1, i) == -1) atomicAdd(cas_winners, 1);
}

__global__ void contended_bits(unsigned* or_bits, unsigned* and_bits, unsigned* xor_bits) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicOr(or_bits, 1u << (i % 32));
  atomicAnd(and_bits, ~(1u << (i % 31)));
  atomicXor(xor_bits, unsigned_key(i));
}

// The same operations on __shared__ variables, one result row per block.
__global__ void shared_atomics(int* out) {
  __shared__ int add;
  __shared__ unsigned inc;
  __shared__ unsigned dec;
  __shared__ int mn;
  __shared__ int mx;
  __shared__ int exch;
  __shared__ int cas_count;
  __shared__ unsigned bits_or;
  __shared__ unsigned bits_and;
  __shared__ unsigned bits_xor;
  __shared__ float fadd;
  __shared__ int sub;
  const int t = threadIdx.x;
  if (t == 0) {
    add = 0;
    inc = 0;
    dec = 0;
    mn = 1 << 30;
    mx = -(1 << 30);
    exch = -1;
    cas_count = 0;
    bits_or = 0;
    bits_and = 0xffffffffu;
    bits_xor = 0;
    fadd = 0.0f;
    sub = 0;
  }
  __syncthreads();
  const int key = (t * 37 + blockIdx.x) % kThreads - 100;
  atomicAdd(&add, t);
  atomicInc(&inc, 9u);
  atomicDec(&dec, 9u);
  atomicMin(&mn, key);
  atomicMax(&mx, key);
  atomicExch(&exch, static_cast<int>(blockIdx.x));
  int old = cas_count, assumed;
  do {
    assumed = old;
    old = atomicCAS(&cas_count, assumed, assumed + 2);
  } while (assumed != old);
  atomicOr(&bits_or, 1u << (t % 32));
  atomicAnd(&bits_and, ~(1u << (t % 16)));
  atomicXor(&bits_xor, static_cast<unsigned>(t));
  atomicAdd(&fadd, 0.25f);
  atomicSub(&sub, 2);
  __syncthreads();
  if (t == 0) {
    int* o = out + blockIdx.x * 13;
    o[0] = add;
    o[1] = static_cast<int>(inc);
    o[2] = static_cast<int>(dec);
    o[3] = mn;
    o[4] = mx;
    o[5] = exch;
    o[6] = cas_count;
    o[7] = static_cast<int>(bits_or);
    o[8] = static_cast<int>(bits_and);
    o[9] = static_cast<int>(bits_xor);
    o[10] = static_cast<int>(fadd);
    o[11] = sub;
    o[12] = fadd == 64.0f;
  }
}

template <typename T>
T* device_copy(const T& value) {
  T* d = nullptr;
  cudaMalloc(&d, sizeof(T));
  cudaMemcpy(d, &value, sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <typename T>
T host_copy(const T* d) {
  T h;
  cudaMemcpy(&h, d, sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

}  // namespace

TEST_CASE("atomicAdd (int, unsigned, unsigned long long, float, double) and atomicSub under contention") {
  Sums init{};
  init.sub_three = 1000000;
  Sums* d = device_copy(init);
  contended_adds<<<kBlocks, kThreads>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const Sums s = host_copy(d);
  const long long index_sum = static_cast<long long>(kTotal) * (kTotal - 1) / 2;  // 134209536
  CHECK(s.add_one == kTotal);
  CHECK(s.add_index == index_sum);
  CHECK(s.sub_three == 1000000 - 3 * kTotal);
  CHECK(s.add_unsigned == static_cast<unsigned>(index_sum));
  CHECK(s.add_ull == (static_cast<unsigned long long>(kTotal) << 32) + static_cast<unsigned long long>(index_sum));
  CHECK(s.add_float == static_cast<float>(kTotal));
  CHECK(s.add_half == kTotal / 2.0f);
  CHECK(s.add_double == static_cast<double>(index_sum));
  CHECK(s.add_quarter == kTotal / 4.0);
  cudaFree(d);
}

TEST_CASE("atomicInc and atomicDec wrap around as CUDA defines them") {
  unsigned *inc = device_copy(0u), *dec = device_copy(0u);
  unsigned *inc_seen = nullptr, *dec_seen = nullptr;
  REQUIRE(cudaMalloc(&inc_seen, 101 * sizeof(unsigned)) == cudaSuccess);
  REQUIRE(cudaMalloc(&dec_seen, 101 * sizeof(unsigned)) == cudaSuccess);
  cudaMemset(inc_seen, 0, 101 * sizeof(unsigned));
  cudaMemset(dec_seen, 0, 101 * sizeof(unsigned));
  wrapping_counters<<<kBlocks, kThreads>>>(inc, dec, inc_seen, dec_seen);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  // inc: ((old >= 99) ? 0 : old + 1), from 0: the value cycles 0..99; 16384 = 163 * 100 + 84.
  CHECK(host_copy(inc) == 84u);
  // dec: ((old == 0) || (old > 99)) ? 99 : old - 1, from 0: 0, 99, 98, ...; after 16384 steps, (-16384) mod 100.
  CHECK(host_copy(dec) == 16u);
  std::vector<unsigned> hi(101), hd(101);
  cudaMemcpy(hi.data(), inc_seen, 101 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd.data(), dec_seen, 101 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int v = 0; v < 100; ++v) {
    wrong += hi[v] != (v < 84 ? 164u : 163u);  // old values 0..83 are seen once more
    // dec sees 0, 99, 98, ..., 17 one time more than 16..1.
    const bool extra = v == 0 || v > 16;
    wrong += hd[v] != (extra ? 164u : 163u);
  }
  CHECK(wrong == 0);
  CHECK(hi[100] == 0u);
  CHECK(hd[100] == 0u);

  // Edge cases, one thread each: (value, limit) -> (old, new).
  const int cases = 5;
  const unsigned values[2 * cases] = {5, 4, 150, 0, 7, /* dec: */ 0, 150, 5, 1, 7};
  const unsigned limits[2 * cases] = {5, 5, 99, 0, 0xffffffffu, /* dec: */ 9, 99, 5, 5, 0};
  const unsigned expect[2 * cases] = {0, 5, 0, 0, 8, /* dec: */ 9, 99, 4, 0, 0};
  unsigned *dv = nullptr, *dl = nullptr, *dold = nullptr;
  REQUIRE(cudaMalloc(&dv, sizeof values) == cudaSuccess);
  REQUIRE(cudaMalloc(&dl, sizeof limits) == cudaSuccess);
  REQUIRE(cudaMalloc(&dold, sizeof values) == cudaSuccess);
  cudaMemcpy(dv, values, sizeof values, cudaMemcpyHostToDevice);
  cudaMemcpy(dl, limits, sizeof limits, cudaMemcpyHostToDevice);
  inc_dec_edges<<<1, 2 * cases>>>(dv, dl, dold, cases);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  unsigned after[2 * cases], olds[2 * cases];
  cudaMemcpy(after, dv, sizeof after, cudaMemcpyDeviceToHost);
  cudaMemcpy(olds, dold, sizeof olds, cudaMemcpyDeviceToHost);
  for (int c = 0; c < 2 * cases; ++c) {
    INFO((c < cases ? "atomicInc" : "atomicDec") << "(" << values[c] << ", limit " << limits[c] << ")");
    CHECK(olds[c] == values[c]);
    CHECK(after[c] == expect[c]);
  }
  cudaFree(inc);
  cudaFree(dec);
  cudaFree(inc_seen);
  cudaFree(dec_seen);
  cudaFree(dv);
  cudaFree(dl);
  cudaFree(dold);
}

TEST_CASE("atomicMin and atomicMax on int, unsigned and long long under contention") {
  Extremes init{2147483647, -2147483647 - 1, 0xffffffffu, 0u, 9223372036854775807LL, -9223372036854775807LL - 1};
  Extremes* d = device_copy(init);
  contended_min_max<<<kBlocks, kThreads>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const Extremes e = host_copy(d);
  Extremes x = init;
  for (int i = 0; i < kTotal; ++i) {
    x.imin = std::min(x.imin, int_key(i));
    x.imax = std::max(x.imax, int_key(i));
    x.umin = std::min(x.umin, unsigned_key(i));
    x.umax = std::max(x.umax, unsigned_key(i));
    x.lmin = std::min(x.lmin, ll_key(i));
    x.lmax = std::max(x.lmax, ll_key(i));
  }
  CHECK(x.imin == -8000);
  CHECK(x.imax == kTotal - 1 - 8000);
  CHECK(e.imin == x.imin);
  CHECK(e.imax == x.imax);
  CHECK(e.umin == x.umin);
  CHECK(e.umax == x.umax);
  CHECK(e.lmin == x.lmin);
  CHECK(e.lmax == x.lmax);
  cudaFree(d);
}

TEST_CASE("atomicExch hands every value on exactly once (int and float)") {
  int* slot = device_copy(-1);
  float* fslot = device_copy(-1.0f);
  int* olds = nullptr;
  float* folds = nullptr;
  REQUIRE(cudaMalloc(&olds, kTotal * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&folds, kTotal * sizeof(float)) == cudaSuccess);
  contended_exchange<<<kBlocks, kThreads>>>(slot, olds, fslot, folds);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<int> o(kTotal);
  std::vector<float> fo(kTotal);
  cudaMemcpy(o.data(), olds, kTotal * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(fo.data(), folds, kTotal * sizeof(float), cudaMemcpyDeviceToHost);
  // The old values and the final value together are the initial value and every thread's value, once each.
  o.push_back(host_copy(slot));
  fo.push_back(host_copy(fslot));
  std::sort(o.begin(), o.end());
  std::sort(fo.begin(), fo.end());
  int wrong = 0;
  for (int k = 0; k <= kTotal; ++k) {
    wrong += o[k] != k - 1;
    wrong += fo[k] != static_cast<float>(k - 1);
  }
  CHECK(wrong == 0);
  cudaFree(slot);
  cudaFree(fslot);
  cudaFree(olds);
  cudaFree(folds);
}

TEST_CASE("atomicCAS: CAS-loop operations (saturating increment, double addition) and single winners") {
  int* capped = device_copy(0);
  double* dsum = device_copy(0.0);
  int* winners = device_copy(0);
  int* claimed = nullptr;
  REQUIRE(cudaMalloc(&claimed, 100 * sizeof(int)) == cudaSuccess);
  cudaMemset(claimed, 0xff, 100 * sizeof(int));  // -1
  cas_operations<<<kBlocks, kThreads>>>(capped, dsum, winners, claimed);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  CHECK(host_copy(capped) == 1000);
  CHECK(host_copy(dsum) == static_cast<double>(kTotal) * (kTotal - 1) / 4.0);
  CHECK(host_copy(winners) == 100);
  std::vector<int> c(100);
  cudaMemcpy(c.data(), claimed, 100 * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int k = 0; k < 100; ++k) wrong += c[k] < 0 || c[k] % 100 != k;  // claimed by a thread i with i % 100 == k
  CHECK(wrong == 0);
  cudaFree(capped);
  cudaFree(dsum);
  cudaFree(winners);
  cudaFree(claimed);
}

TEST_CASE("atomicAnd, atomicOr and atomicXor under contention") {
  unsigned *o = device_copy(0u), *a = device_copy(0xffffffffu), *x = device_copy(0x12345678u);
  contended_bits<<<kBlocks, kThreads>>>(o, a, x);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  unsigned expected_xor = 0x12345678u;
  for (int i = 0; i < kTotal; ++i) expected_xor ^= unsigned_key(i);
  CHECK(host_copy(o) == 0xffffffffu);
  CHECK(host_copy(a) == 0x80000000u);  // bits 0..30 cleared
  CHECK(host_copy(x) == expected_xor);
  cudaFree(o);
  cudaFree(a);
  cudaFree(x);
}

TEST_CASE("atomics on __shared__ variables: exact per-block results") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, kBlocks * 13 * sizeof(int)) == cudaSuccess);
  shared_atomics<<<kBlocks, kThreads>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<int> h(kBlocks * 13);
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  unsigned xor_t = 0;
  for (int t = 0; t < kThreads; ++t) xor_t ^= static_cast<unsigned>(t);
  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b) {
    const int* o = &h[b * 13];
    wrong += o[0] != kThreads * (kThreads - 1) / 2;
    wrong += o[1] != kThreads % 10;         // 256 increments with limit 9: 6
    wrong += o[2] != (10 - kThreads % 10) % 10;  // 256 decrements from 0 with limit 9: 4
    wrong += o[3] != -100;
    wrong += o[4] != kThreads - 1 - 100;
    wrong += o[5] != b;
    wrong += o[6] != 2 * kThreads;
    wrong += o[7] != -1;       // 0xffffffff
    wrong += o[8] != -65536;   // 0xffff0000
    wrong += o[9] != static_cast<int>(xor_t);
    wrong += o[10] != kThreads / 4;
    wrong += o[11] != -2 * kThreads;
    wrong += o[12] != 1;
    if (b == 0) {
      INFO("block 0: " << o[0] << " " << o[1] << " " << o[2] << " " << o[3] << " " << o[4] << " " << o[5] << " "
                       << o[6] << " " << o[7] << " " << o[8] << " " << o[9] << " " << o[10] << " " << o[11]);
      CHECK(wrong == 0);
    }
  }
  CHECK(wrong == 0);
  cudaFree(d);
}

// The system-scope variants, as systemWideAtomics (cuda-samples) calls them on managed memory.
__global__ void system_scope(int* a, unsigned* u) {
  const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  atomicAdd_system(&a[0], 10);
  atomicExch_system(&a[1], t);
  atomicMax_system(&a[2], t);
  atomicMin_system(&a[3], t);
  atomicInc_system(&u[0], 17u);
  atomicDec_system(&u[1], 137u);
  atomicCAS_system(&a[4], t - 1, t);
  atomicAnd_system(&a[5], ~(1 << (t % 31)));
  atomicOr_system(&a[6], 1 << (t % 31));
  atomicXor_system(&a[7], t);
  atomicSub_system(&a[8], 2);
}

TEST_CASE("atomic*_system: every scope-qualified variant, as on the device-wide atomics") {
  int* a;
  unsigned* u;
  REQUIRE(cudaMallocManaged(&a, 9 * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMallocManaged(&u, 2 * sizeof(unsigned)) == cudaSuccess);
  const int init[9] = {0, -1, -1, 1 << 20, 0, -1, 0, 0, 1000};
  for (int i = 0; i < 9; ++i) a[i] = init[i];
  u[0] = u[1] = 0;
  system_scope<<<2, 64>>>(a, u);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  int expected_xor = 0;
  for (int t = 0; t < 128; ++t) expected_xor ^= t;
  CHECK(a[0] == 1280);
  CHECK(a[1] >= 0);
  CHECK(a[1] < 128);
  CHECK(a[2] == 127);
  CHECK(a[3] == 0);
  CHECK(u[0] == 128 % 18);
  CHECK(u[1] == 10);  // 0 wraps to 137, then 127 steps down
  CHECK(a[4] >= 0);  // the chain of CAS from 0 advanced at least once
  CHECK(a[5] == static_cast<int>(0x80000000u));
  CHECK(a[6] == 0x7fffffff);
  CHECK(a[7] == expected_xor);
  CHECK(a[8] == 1000 - 256);
  cudaFree(a);
  cudaFree(u);
}
