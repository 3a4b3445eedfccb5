// Emulator speed benchmark: the course's kernels with barriers (a shared-memory
// tree reduction, Kogge-Stone and Brent-Kung block scans, tiled matrix multiply
// and tiled 2-D convolution), each timed on the emulator and compared with the
// same computation as a plain serial C++ loop on one core, plus the cost of one
// barrier round per thread on fibers. Run with
//   gpulab run bench/emulator/emulator_bench.cu
// (GPULAB_EMU_WORKERS=1 for one worker; GPULAB_EMU_REGIONS=0 for one fiber per
// thread instead of regions between barriers). Prints a Markdown table: the
// median of 3 runs after a warm-up, wall clock and CPU time, and the worker count.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <vector>

constexpr int kBlock = 256;
constexpr int kTile = 16;
constexpr int kMask = 5;                          // convolution mask width
constexpr int kConvOut = 16;                      // output tile side of the convolution
constexpr int kConvIn = kConvOut + kMask - 1;     // input tile side (with the halo): the block's side

__global__ void tree_reduce(const float* in, float* out, int n) {
  __shared__ float partial[kBlock];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  partial[t] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (t < stride) partial[t] += partial[t + stride];
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

// Kogge-Stone inclusive scan of each block's section, double-buffered.
__global__ void kogge_stone_scan(const float* in, float* out, int n) {
  __shared__ float buffer[2][kBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  int src = 0;
  buffer[src][t] = i < n ? in[i] : 0.0f;
  for (int stride = 1; stride < kBlock; stride *= 2) {
    __syncthreads();
    const int dst = 1 - src;
    buffer[dst][t] = t >= stride ? buffer[src][t] + buffer[src][t - stride] : buffer[src][t];
    src = dst;
  }
  if (i < n) out[i] = buffer[src][t];
}

// Brent-Kung inclusive scan of each block's section of 2 * blockDim.x elements.
__global__ void brent_kung_scan(const float* in, float* out, int n) {
  __shared__ float xy[2 * kBlock];
  const int t = threadIdx.x;
  const int base = 2 * blockIdx.x * blockDim.x;
  xy[t] = base + t < n ? in[base + t] : 0.0f;
  xy[t + kBlock] = base + t + kBlock < n ? in[base + t + kBlock] : 0.0f;
  for (int stride = 1; stride <= kBlock; stride *= 2) {
    __syncthreads();
    const int index = (t + 1) * 2 * stride - 1;
    if (index < 2 * kBlock) xy[index] += xy[index - stride];
  }
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    __syncthreads();
    const int index = (t + 1) * 2 * stride - 1;
    if (index + stride < 2 * kBlock) xy[index + stride] += xy[index];
  }
  __syncthreads();
  if (base + t < n) out[base + t] = xy[t];
  if (base + t + kBlock < n) out[base + t + kBlock] = xy[t + kBlock];
}

__global__ void tiled_matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float ta[kTile][kTile];
  __shared__ float tb[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y;
  const int col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int p = 0; p < (k + kTile - 1) / kTile; ++p) {
    const int ac = p * kTile + threadIdx.x, br = p * kTile + threadIdx.y;
    ta[threadIdx.y][threadIdx.x] = row < m && ac < k ? a[row * k + ac] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = br < k && col < n ? b[br * n + col] : 0.0f;
    __syncthreads();
    for (int q = 0; q < kTile; ++q) acc += ta[threadIdx.y][q] * tb[q][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}

// Tiled 2-D convolution: each block loads its input tile with the halo (one cell per thread,
// ghost cells 0), then its inner threads compute one output each.
__global__ void tiled_convolution(const float* in, const float* mask, float* out, int height, int width) {
  __shared__ float tile[kConvIn][kConvIn];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kConvOut + ty - kMask / 2;
  const int col = blockIdx.x * kConvOut + tx - kMask / 2;
  tile[ty][tx] = row >= 0 && row < height && col >= 0 && col < width ? in[row * width + col] : 0.0f;
  __syncthreads();
  if (tx < kConvOut && ty < kConvOut && row + kMask / 2 < height && col + kMask / 2 < width) {
    float sum = 0.0f;
    for (int i = 0; i < kMask; ++i)
      for (int j = 0; j < kMask; ++j) sum += tile[ty + i][tx + j] * mask[i * kMask + j];
    out[(row + kMask / 2) * width + col + kMask / 2] = sum;
  }
}

// The cost of a barrier on fibers: its condition reads threadIdx (every thread takes it, but the
// regions cannot prove that), so each thread of the block keeps a fiber of its own.
__global__ void barrier_storm(int rounds, int* out) {
  int x = threadIdx.x;
  for (int r = 0; r < rounds; ++r)
    if (x < 1024) __syncthreads();
  if (x == 0) out[blockIdx.x] = rounds;
}

// Wall-clock and CPU time (CLOCK_PROCESS_CPUTIME_ID: every thread of the program, the emulator's
// workers included) of a run, each the median of 3 runs after a warm-up. On a machine that other
// work shares, the wall clock also counts the time others had the core; the CPU time does not.
struct Timing {
  double wall = 0, cpu = 0;
};

static double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

static Timing median_seconds(const std::function<void()>& f) {
  f();  // warm-up: stacks, pages, caches
  std::vector<double> wall, cpu;
  for (int r = 0; r < 3; ++r) {
    const auto s = std::chrono::steady_clock::now();
    const double c = cpu_now();
    f();
    cpu.push_back(cpu_now() - c);
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count());
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[1], cpu[1]};
}

static void row(const char* what, const char* size, Timing emu, Timing serial) {
  std::printf("| %-40s | %-8s | %8.4f s | %8.4f s | %6.1fx | %8.4f s | %8.4f s | %6.1fx |\n", what, size, emu.wall,
              serial.wall, emu.wall / serial.wall, emu.cpu, serial.cpu, emu.cpu / serial.cpu);
}

static void check(const char* what, bool ok) {
  if (!ok) std::printf("WRONG RESULT: %s\n", what);
}

int main() {
  // Every launch is timed as it runs: the emulator would replay a repeat of an earlier launch on
  // the same data (grader/emu/src/README.md), which is not what this measures.
  setenv("GPULAB_EMU_REPLAY", "0", 1);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const char* workers = std::getenv("GPULAB_EMU_WORKERS");
  const char* regions = std::getenv("GPULAB_EMU_REGIONS");
  std::printf("device: %s, %d SMs, GPULAB_EMU_WORKERS=%s, GPULAB_EMU_REGIONS=%s\n\n", prop.name,
              prop.multiProcessorCount, workers ? workers : "(all)", regions ? regions : "(default)");
  std::printf("| %-40s | %-8s | %10s | %10s | %7s | %10s | %10s | %7s |\n", "kernel", "size", "emulator",
              "serial C++", "ratio", "emu CPU", "serial CPU", "ratio");
  std::printf("|---|---|---|---|---|---|---|---|\n");

  {  // reduction, 2^24 elements
    const int n = 1 << 24, blocks = n / kBlock;
    std::vector<float> h(n), sums(blocks);
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 7);
    float *d, *o;
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&o, blocks * sizeof(float));
    cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    const Timing emu = median_seconds([&] {
      tree_reduce<<<blocks, kBlock>>>(d, o, n);
      cudaDeviceSynchronize();
    });
    cudaMemcpy(sums.data(), o, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    double total = 0;
    for (float s : sums) total += s;
    volatile float sink = 0;
    const Timing serial = median_seconds([&] {
      float s = 0;
      for (int i = 0; i < n; ++i) s += h[i];
      sink = s;
    });
    double expected = 0;
    for (int i = 0; i < n; ++i) expected += h[i];
    check("tree reduction", total == expected);
    row("shared-memory tree reduction, 256/block", "2^24", emu, serial);
    cudaFree(d);
    cudaFree(o);
  }
  {  // Kogge-Stone and Brent-Kung scans, 2^22 elements
    const int n = 1 << 22;
    std::vector<float> h(n), r(n), g(n);
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 3);
    float *d, *o;
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&o, n * sizeof(float));
    cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    for (const int section : {kBlock, 2 * kBlock}) {
      const bool kogge = section == kBlock;
      const Timing emu = median_seconds([&] {
        if (kogge) {
          kogge_stone_scan<<<n / section, kBlock>>>(d, o, n);
        } else {
          brent_kung_scan<<<n / section, kBlock>>>(d, o, n);
        }
        cudaDeviceSynchronize();
      });
      const Timing serial = median_seconds([&] {
        for (int b = 0; b < n / section; ++b) {
          float s = 0;
          for (int t = 0; t < section; ++t) r[b * section + t] = s += h[b * section + t];
        }
      });
      cudaMemcpy(g.data(), o, n * sizeof(float), cudaMemcpyDeviceToHost);
      check(kogge ? "Kogge-Stone scan" : "Brent-Kung scan", g == r);
      row(kogge ? "Kogge-Stone block scan, 256/block" : "Brent-Kung block scan, 512/block", "2^22", emu, serial);
    }
    cudaFree(d);
    cudaFree(o);
  }
  {  // tiled matmul 512^3
    const int m = 512, n = 512, k = 512;
    std::vector<float> a(m * k), b(k * n), c(m * n), g(m * n);
    for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>(i % 5);
    for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>(i % 3);
    float *da, *db, *dc;
    cudaMalloc(&da, a.size() * sizeof(float));
    cudaMalloc(&db, b.size() * sizeof(float));
    cudaMalloc(&dc, c.size() * sizeof(float));
    cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
    const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile), block(kTile, kTile);
    const Timing emu = median_seconds([&] {
      tiled_matmul<<<grid, block>>>(da, db, dc, m, n, k);
      cudaDeviceSynchronize();
    });
    const Timing serial = median_seconds([&] {
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          float acc = 0;
          for (int p = 0; p < k; ++p) acc += a[i * k + p] * b[p * n + j];
          c[i * n + j] = acc;
        }
    });
    cudaMemcpy(g.data(), dc, g.size() * sizeof(float), cudaMemcpyDeviceToHost);
    check("tiled matmul", g == c);
    row("tiled matmul, 16x16 tiles", "512^3", emu, serial);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
  }
  {  // tiled 2-D convolution, 2048^2 with a 5x5 mask
    const int height = 2048, width = 2048;
    std::vector<float> in(height * width), mask(kMask * kMask), out(height * width), g(height * width);
    for (int i = 0; i < height * width; ++i) in[i] = static_cast<float>(i % 11);
    for (int i = 0; i < kMask * kMask; ++i) mask[i] = static_cast<float>(i % 4);
    float *din, *dmask, *dout;
    cudaMalloc(&din, in.size() * sizeof(float));
    cudaMalloc(&dmask, mask.size() * sizeof(float));
    cudaMalloc(&dout, out.size() * sizeof(float));
    cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dmask, mask.data(), mask.size() * sizeof(float), cudaMemcpyHostToDevice);
    const dim3 grid((width + kConvOut - 1) / kConvOut, (height + kConvOut - 1) / kConvOut), block(kConvIn, kConvIn);
    const Timing emu = median_seconds([&] {
      tiled_convolution<<<grid, block>>>(din, dmask, dout, height, width);
      cudaDeviceSynchronize();
    });
    const Timing serial = median_seconds([&] {
      for (int r = 0; r < height; ++r)
        for (int c = 0; c < width; ++c) {
          float sum = 0.0f;
          for (int i = 0; i < kMask; ++i)
            for (int j = 0; j < kMask; ++j) {
              const int y = r + i - kMask / 2, x = c + j - kMask / 2;
              sum += (y >= 0 && y < height && x >= 0 && x < width ? in[y * width + x] : 0.0f) * mask[i * kMask + j];
            }
          out[r * width + c] = sum;
        }
    });
    cudaMemcpy(g.data(), dout, g.size() * sizeof(float), cudaMemcpyDeviceToHost);
    check("tiled convolution", g == out);
    row("tiled 2-D convolution, 5x5 mask", "2048^2", emu, serial);
    cudaFree(din);
    cudaFree(dmask);
    cudaFree(dout);
  }
  {  // barrier cost: one barrier round per thread
    const int blocks = 64, rounds = 2000;
    int* o;
    cudaMalloc(&o, blocks * sizeof(int));
    const Timing emu = median_seconds([&] {
      barrier_storm<<<blocks, kBlock>>>(rounds, o);
      cudaDeviceSynchronize();
    });
    const double rounds_per_thread = 1.0 * blocks * kBlock * rounds;
    std::printf("\nbarrier round on fibers (one __syncthreads() per thread, %d x %d threads x %d rounds): %.2f ns per "
                "thread per round, wall clock\n",
                blocks, kBlock, rounds, emu.wall * 1e9 / rounds_per_thread);
    cudaFree(o);
  }
  return 0;
}
