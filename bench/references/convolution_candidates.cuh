// Candidate shapes of the 2-D register-blocked convolution kernel for the
// tuning program (convolution_variants.cu), included after the reference in
// the same translation unit: one kernel template whose parameters are the
// choices being measured against the reference's conv2d_blocked:
//   WX, COLG   warps side by side and 4-column groups a lane computes (tile
//              width 128 * WX * COLG; a lane's groups lie 128 columns apart, so
//              a warp's 16-byte shared reads stay conflict-free)
//   BUFFERS    1: one tile a block (copy, wait, compute, store); 2: a
//              persistent grid, the next tile copied while this one computes
//   MIN_BLOCKS the register cap (__launch_bounds__)
//   MASK_REGS  the mask read from device memory into registers by every
//              thread (one launch a call, no copy into constant memory)
//   ORDER      0: the reference's order of the multiply-adds (output row, mask
//              column, output column); 1: mask column, output column, output
//              row (consecutive FFMAs share the input value)
// Tile coordinates advance without divisions and interior tiles copy from
// offsets computed once a thread.
#pragma once

namespace cand {
using namespace after;

template <int W, int WX, int COLG, int BUFFERS, int MIN_BLOCKS, int MASK, int ORDER> struct Shape {
  static constexpr int R = W / 2, ROWS = 8, WY = 4;
  static constexpr int WARPS = WX * WY, THREADS = 32 * WARPS;
  static constexpr int GROUPS = WX * COLG;  // 128-column groups of the tile
  static constexpr int TX = 128 * GROUPS, TY = WY * ROWS;
  static constexpr int SV = 32 * GROUPS + 4;  // 16-byte vectors of a shared row (8 halo cells a side)
  static constexpr int IN_H = TY + W - 1;
  static constexpr int V_LO = (8 - R) / 4, V_HI = (11 + R) / 4, NV = V_HI - V_LO + 1, OFF = (8 - R) - 4 * V_LO;
  static constexpr int EXTRA_SLOTS = IN_H * 4, EXTRA_PER_THREAD = (EXTRA_SLOTS + THREADS - 1) / THREADS;
  static constexpr size_t SHARED = size_t(BUFFERS) * IN_H * SV * 16;
};

template <int W, int ORDER, int COLG, int ROWS, int N, class M>
__device__ __forceinline__ void add_row(float (&acc)[COLG][ROWS][4], const float (&win)[N], int g, int k,
                                        const M& m) {
  constexpr int OFF = (8 - W / 2) - 4 * ((8 - W / 2) / 4);
  if (ORDER == 0) {  // output row, mask column, output column
#pragma unroll
    for (int i = 0; i < ROWS; ++i) {
      const int mr = k - i;
      if (mr >= 0 && mr < W) {
#pragma unroll
        for (int j = 0; j < W; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[g][i][e] += win[OFF + e + j] * m(mr, j);
      }
    }
  } else if (ORDER == 1) {  // mask column, output column, output row
#pragma unroll
    for (int j = 0; j < W; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e)
#pragma unroll
        for (int i = 0; i < ROWS; ++i) {
          const int mr = k - i;
          if (mr >= 0 && mr < W) acc[g][i][e] += win[OFF + e + j] * m(mr, j);
        }
  } else {  // mask column, output row, output column
#pragma unroll
    for (int j = 0; j < W; ++j)
#pragma unroll
      for (int i = 0; i < ROWS; ++i) {
        const int mr = k - i;
        if (mr >= 0 && mr < W) {
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[g][i][e] += win[OFF + e + j] * m(mr, j);
        }
      }
  }
}

// Where the multiply-adds take the mask from: MASK_CONST (constant memory, copied by the host
// before the launch), MASK_REGS (registers, read from device memory by every thread),
// MASK_SHARED (shared memory, transposed: column j's values in two 16-byte vectors, read where
// used; one launch a call, few registers).
constexpr int MASK_CONST = 0, MASK_REGS_ = 1, MASK_SHARED = 2;

template <int W, int WX, int COLG, int BUFFERS, int MIN_BLOCKS, int MASK, int ORDER>
__global__ void __launch_bounds__(32 * WX * 4, MIN_BLOCKS)
    conv2d_cand(const float* __restrict__ in, const float* __restrict__ mask, float* __restrict__ out, int height,
                int width, int tiles_x, int tiles_y) {
  using S = Shape<W, WX, COLG, BUFFERS, MIN_BLOCKS, MASK, ORDER>;
  extern __shared__ float4 smem4[];
  auto tile = [&](int buf, int r, int v) -> float4& { return smem4[(buf * S::IN_H + r) * S::SV + v]; };
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wx = warp % WX, wy = warp / WX;

  constexpr bool REGS = MASK == MASK_REGS_;
  float mk[REGS ? W * W : 1];
  if (REGS) {
#pragma unroll
    for (int i = 0; i < W * W; ++i) mk[i] = __ldg(mask + i);
  }
  __shared__ float4 smask[MASK == MASK_SHARED ? 2 * W : 1];
  if (MASK == MASK_SHARED && tid < W * W) {  // column j, row r at float 8 j + r
    const int r = tid / W, j = tid - r * W;
    reinterpret_cast<float*>(smask)[8 * j + r] = __ldg(mask + tid);
  }
  auto m = [&](int r, int j) { return REGS ? mk[REGS ? r * W + j : 0] : c_mask[r * W + j]; };

  // Offsets (floats, from the tile's first input cell) of this thread's extra
  // vectors (the last 4 of every row) in an interior tile.
  long long extra_off[S::EXTRA_PER_THREAD];
  int extra_dst[S::EXTRA_PER_THREAD];
#pragma unroll
  for (int q = 0; q < S::EXTRA_PER_THREAD; ++q) {
    const int i = tid + q * S::THREADS, r = i / 4, v = 32 * S::GROUPS + i % 4;
    extra_off[q] = static_cast<long long>(r) * width + 4 * v;
    extra_dst[q] = r * S::SV + v;
  }

  auto start_copy = [&](int buf, int tx, int ty) {
    const int row0 = ty * S::TY - S::R, c0 = tx * S::TX - 8;
    if (row0 >= 0 && row0 + S::IN_H <= height && c0 >= 0 && c0 + 4 * S::SV <= width) {
      const float* base = in + static_cast<size_t>(row0) * width + c0;
      const float* src = base + static_cast<size_t>(warp) * width + 4 * lane;
      const size_t step = static_cast<size_t>(S::WARPS) * width;
#pragma unroll
      for (int r = warp, k = 0; k < (S::IN_H + S::WARPS - 1) / S::WARPS; ++k, r += S::WARPS, src += step)
        if (k < S::IN_H / S::WARPS || r < S::IN_H) {
#pragma unroll
          for (int g = 0; g < S::GROUPS; ++g) __pipeline_memcpy_async(&tile(buf, r, 32 * g + lane), src + 128 * g, 16);
        }
#pragma unroll
      for (int q = 0; q < S::EXTRA_PER_THREAD; ++q)
        if (q < S::EXTRA_SLOTS / S::THREADS || tid + q * S::THREADS < S::EXTRA_SLOTS)
          __pipeline_memcpy_async(&smem4[buf * S::IN_H * S::SV + extra_dst[q]], base + extra_off[q], 16);
    } else {
      for (int i = tid; i < S::IN_H * S::SV; i += S::THREADS) {
        const int r = i / S::SV, v = i - r * S::SV, gr = row0 + r, gc = c0 + 4 * v;
        const bool inside = gr >= 0 && gr < height && gc >= 0 && gc < width;
        __pipeline_memcpy_async(&tile(buf, r, v), inside ? in + static_cast<size_t>(gr) * width + gc : in, 16,
                                inside ? 0 : 16);
      }
    }
    __pipeline_commit();
  };

  int tx, ty, step_x = 0, step_y = 0;
  if (BUFFERS == 1) {
    tx = blockIdx.x, ty = blockIdx.y;
  } else {
    ty = blockIdx.x / tiles_x, tx = blockIdx.x - ty * tiles_x;
    step_y = gridDim.x / tiles_x, step_x = gridDim.x - step_y * tiles_x;
  }
  auto advance = [&](int& x, int& y) {
    x += step_x, y += step_y;
    if (x >= tiles_x) x -= tiles_x, ++y;
  };
  int buf = 0;
  if (ty < tiles_y) start_copy(0, tx, ty);
  while (ty < tiles_y) {
    int nx = tx, ny = ty;
    if (BUFFERS == 2) advance(nx, ny);
    __pipeline_wait_prior(0);
    __syncthreads();
    if (BUFFERS == 2 && ny < tiles_y) start_copy(buf ^ 1, nx, ny);

    float acc[COLG][S::ROWS][4];
#pragma unroll
    for (int g = 0; g < COLG; ++g)
#pragma unroll
      for (int i = 0; i < S::ROWS; ++i)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[g][i][e] = 0.0f;
    const int tr0 = wy * S::ROWS;
#pragma unroll
    for (int k = 0; k < S::ROWS + W - 1; ++k) {
#pragma unroll
      for (int g = 0; g < COLG; ++g) {
        float win[4 * S::NV];
#pragma unroll
        for (int v = 0; v < S::NV; ++v) {
          const float4 x = tile(buf, tr0 + k, 32 * (COLG * wx + g) + lane + S::V_LO + v);
          win[4 * v] = x.x, win[4 * v + 1] = x.y, win[4 * v + 2] = x.z, win[4 * v + 3] = x.w;
        }
        if (MASK == MASK_SHARED) {
          // Column j of the mask (rows 0 .. W-1), two broadcast 16-byte loads, then mask
          // column, output column, output row.
          constexpr int OFF = S::OFF;
#pragma unroll
          for (int j = 0; j < W; ++j) {
            const float4 a = smask[2 * j], b = smask[2 * j + 1];
            const float col[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
#pragma unroll
            for (int e = 0; e < 4; ++e)
#pragma unroll
              for (int i = 0; i < S::ROWS; ++i) {
                const int mr = k - i;
                if (mr >= 0 && mr < W) acc[g][i][e] += win[OFF + e + j] * col[mr];
              }
          }
        } else {
          add_row<W, ORDER>(acc, win, g, k, m);
        }
      }
    }

    const int row_base = ty * S::TY + tr0;
#pragma unroll
    for (int g = 0; g < COLG; ++g) {
      const int col = tx * S::TX + 128 * (COLG * wx + g) + 4 * lane;
      if (col >= width) continue;
      float* dst = out + static_cast<size_t>(row_base) * width + col;
      if (row_base + S::ROWS <= height) {
#pragma unroll
        for (int i = 0; i < S::ROWS; ++i, dst += width)
          *reinterpret_cast<float4*>(dst) = make_float4(acc[g][i][0], acc[g][i][1], acc[g][i][2], acc[g][i][3]);
      } else {
#pragma unroll
        for (int i = 0; i < S::ROWS; ++i, dst += width)
          if (row_base + i < height)
            *reinterpret_cast<float4*>(dst) = make_float4(acc[g][i][0], acc[g][i][1], acc[g][i][2], acc[g][i][3]);
      }
    }
    if (BUFFERS == 1) break;
    tx = nx, ty = ny, buf ^= 1;
  }
}

// Mask copy into constant memory through the symbol's device address (asked once).
inline void copy_mask_by_address(const float* mask, int count) {
  static void* sym = nullptr;
  if (!sym) CHECK_CUDA(cudaGetSymbolAddress(&sym, c_mask));
  cudaMemcpyAsync(sym, mask, count * sizeof(float), cudaMemcpyDeviceToDevice);
}

template <int W, int WX, int COLG, int BUFFERS, int MIN_BLOCKS, int MASK, int ORDER>
void launch(const float* in, const float* mask, float* out, int h, int w, int mask_copy /*0 none,1 symbol,2 address*/) {
  using S = Shape<W, WX, COLG, BUFFERS, MIN_BLOCKS, MASK, ORDER>;
  auto kernel = conv2d_cand<W, WX, COLG, BUFFERS, MIN_BLOCKS, MASK, ORDER>;
  static int grid_max = 0;
  if (grid_max == 0) {
    CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(S::SHARED)));
    int per_sm = 0, sms = 0, device = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, S::THREADS, S::SHARED));
    grid_max = (per_sm > 0 ? per_sm : 1) * sms;
    std::fprintf(stderr, "candidate W=%d WX=%d COLG=%d BUF=%d MB=%d MASK=%d ORDER=%d: %d blocks/SM, %zu B shared\n", W,
                 WX, COLG, BUFFERS, MIN_BLOCKS, MASK, ORDER, per_sm, S::SHARED);
  }
  if (MASK == MASK_CONST && mask_copy == 1)
    cudaMemcpyToSymbolAsync(c_mask, mask, W * W * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  if (MASK == MASK_CONST && mask_copy == 2) copy_mask_by_address(mask, W * W);
  const int tiles_x = (w + S::TX - 1) / S::TX, tiles_y = (h + S::TY - 1) / S::TY;
  if (BUFFERS == 1) {
    kernel<<<dim3(tiles_x, tiles_y), S::THREADS, S::SHARED>>>(in, mask, out, h, w, tiles_x, tiles_y);
  } else {
    const int grid = std::min(tiles_x * tiles_y, grid_max);
    kernel<<<grid, S::THREADS, S::SHARED>>>(in, mask, out, h, w, tiles_x, tiles_y);
  }
}

// The candidates: a name and a call, for one mask width.
using Call = std::function<void(const float*, const float*, float*, int, int)>;
using Launcher = void (*)(const float*, const float*, float*, int, int, int);
inline std::vector<std::pair<std::string, Call>> list(int w) {
  std::vector<std::pair<std::string, Call>> c;
  auto add = [&](const char* name, Launcher f, int mask_copy) {
    c.emplace_back(name,
                   [=](const float* i, const float* m, float* o, int h, int wd) { f(i, m, o, h, wd, mask_copy); });
  };
  if (w == 5) {
    add("c 128 o1 alone", launch<5, 1, 1, 1, 8, MASK_CONST, 1>, 0);
    add("c 256x o1 alone", launch<5, 2, 1, 1, 4, MASK_CONST, 1>, 0);
    add("c 128 o2 regs mb6", launch<5, 1, 1, 1, 6, MASK_REGS_, 2>, 0);
    add("c 128 o2 regs mb7", launch<5, 1, 1, 1, 7, MASK_REGS_, 2>, 0);
    add("c 128 o2 regs mb8", launch<5, 1, 1, 1, 8, MASK_REGS_, 2>, 0);
    add("c 256x o2 regs mb4", launch<5, 2, 1, 1, 4, MASK_REGS_, 2>, 0);
    add("c 256x o2 regs mb3", launch<5, 2, 1, 1, 3, MASK_REGS_, 2>, 0);
    add("c 256x o0 regs mb4", launch<5, 2, 1, 1, 4, MASK_REGS_, 0>, 0);
  } else if (w == 7) {
    add("c 128 p2 o2 alone", launch<7, 1, 1, 2, 5, MASK_CONST, 2>, 0);
    add("c 128 p2 o2 symbol", launch<7, 1, 1, 2, 5, MASK_CONST, 2>, 1);
    add("c 128 p2 o2 regs mb5", launch<7, 1, 1, 2, 5, MASK_REGS_, 2>, 0);
    add("c 128 p2 o0 regs mb5", launch<7, 1, 1, 2, 5, MASK_REGS_, 0>, 0);
    add("c 128 p2 o2 regs mb4", launch<7, 1, 1, 2, 4, MASK_REGS_, 2>, 0);
    add("c 128 p1 o0 regs mb8", launch<7, 1, 1, 1, 8, MASK_REGS_, 0>, 0);
  }
  return c;
}

}  // namespace cand
