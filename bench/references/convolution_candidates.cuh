// Other shapes of the convolution reference's 2-D register-blocked kernel
// (conv2d_blocked, 5 x 5 and 7 x 7 on whole 16-byte rows) and strip walkers,
// timed against it by convolution_variants.cu, which includes this file inside
// the reference's namespace (after the reference: c_mask and add_input_row are
// its own). conv2d_blocked_c<W, ROWS, BY, STAGES, MINB, CS, BX>: each thread
// computes 4 adjacent columns x ROWS rows, BX x BY warps (128 BX x BY ROWS
// outputs a tile), a STAGES-deep ring of cp.async tile buffers in dynamic shared
// memory with one __syncthreads() a tile (the next copy issued after it, into
// the buffer everyone finished with), MINB resident blocks per SM for the
// register cap, CS streaming (evict-first) stores; the grid persistent (as many
// blocks as fit, each walking tiles t, t + gridDim.x, ...) or one block a tile.
// The reference is <5, 8, 4, 1, 8> one block a tile and <7, 8, 4, 2, 5>
// persistent. On the H200 (2026-11-30) none of the others beat it: the numbers
// are in docs/performance.md.
#pragma once

template <int W, int ROWS, int BY, int STAGES, int BX = 1> struct BlockedShape {
  static constexpr int R = W / 2, THREADS = 32 * BX * BY, TX = 128 * BX, TY = BY * ROWS, IN_H = TY + W - 1;
  static constexpr int SV = TX / 4 + 4;  // 16-byte vectors a shared row: the tile and 8 cells each side
  static constexpr int V_LO = (8 - R) / 4, V_HI = (11 + R) / 4, NV = V_HI - V_LO + 1, OFF = (8 - R) - 4 * V_LO;
  static constexpr int STAGE_VECS = IN_H * SV;
  static constexpr int SMEM = STAGES * STAGE_VECS * 16;
  static_assert(NV == 3 && V_HI + 32 * BX - 1 < SV, "three vectors per window row, inside the shared row");
};

template <int W, int ROWS, int BY, int STAGES, int MINB, bool CS, int BX>
__global__ void __launch_bounds__(32 * BX * BY, MINB)
    conv2d_blocked_c(const float* __restrict__ in, float* __restrict__ out, int height, int width, int tiles_x,
                     int tiles) {
  using S = BlockedShape<W, ROWS, BY, STAGES, BX>;
  extern __shared__ float4 smem4[];
  // Warp (wx, warp): columns 128 wx .. 128 wx + 127 of the tile, rows warp * ROWS ...
  const int lane = threadIdx.x & 31, wx = (threadIdx.x >> 5) % BX, warp = (threadIdx.x >> 5) / BX;
  const int vx = 32 * wx + lane;  // the thread's vector within a row (before V_LO)

  // Issues (without committing) the copies of tile t's input into buffer buf.
  auto start_copy = [&](int buf, int t) {
    float4* const tile = smem4 + buf * S::STAGE_VECS;
    const int ty = t / tiles_x, tx = t - ty * tiles_x;
    const int row0 = ty * S::TY - S::R;
    const int c0 = tx * S::TX - 8 + 4 * (S::V_LO + vx), c1 = tx * S::TX - 8 + 4 * (S::V_LO + 32 * BX + lane);
    if (row0 >= 0 && row0 + S::IN_H <= height && tx * S::TX - 8 + 4 * S::V_LO >= 0 &&
        tx * S::TX - 8 + 4 * (S::V_HI + 32 * BX) <= width) {
      const float* src = in + static_cast<size_t>(row0 + warp) * width + c0;
      const size_t step = static_cast<size_t>(BY) * width;
#pragma unroll
      for (int r = warp, k = 0; k < (S::IN_H + BY - 1) / BY; ++k, r += BY, src += step)
        if (k < S::IN_H / BY || r < S::IN_H) __pipeline_memcpy_async(&tile[r * S::SV + S::V_LO + vx], src, 16);
      for (int i = threadIdx.x; i < S::IN_H * (S::NV - 1); i += S::THREADS) {
        const int r = i / (S::NV - 1), v = S::V_LO + 32 * BX + i % (S::NV - 1);
        __pipeline_memcpy_async(&tile[r * S::SV + v],
                                in + static_cast<size_t>(row0 + r) * width + tx * S::TX - 8 + 4 * v, 16);
      }
      return;
    }
    const bool in0 = c0 >= 0 && c0 < width, in1 = wx == 0 && lane < S::NV - 1 && c1 < width;
    for (int r = warp; r < S::IN_H; r += BY) {
      const int gr = row0 + r;
      const bool row_in = gr >= 0 && gr < height;
      const float* row = in + static_cast<size_t>(row_in ? gr : 0) * width;
      __pipeline_memcpy_async(&tile[r * S::SV + S::V_LO + vx], row_in && in0 ? row + c0 : in, 16,
                              row_in && in0 ? 0 : 16);
      if (wx == 0 && lane < S::NV - 1)
        __pipeline_memcpy_async(&tile[r * S::SV + S::V_LO + 32 * BX + lane], row_in && in1 ? row + c1 : in, 16,
                                row_in && in1 ? 0 : 16);
    }
  };

  const int G = gridDim.x;
  int t = blockIdx.x;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (t + s * G < tiles) start_copy(s, t + s * G);
    __pipeline_commit();
  }
  int buf = 0;
  for (; t < tiles; t += G) {
    if constexpr (STAGES == 1) {
      start_copy(0, t);
      __pipeline_commit();
      __pipeline_wait_prior(0);
    } else {
      __pipeline_wait_prior(STAGES - 2);  // this thread's copies of tile t have landed
    }
    __syncthreads();  // everyone's copies of tile t have landed, everyone is done with the previous tile
    if constexpr (STAGES > 1) {
      const int tn = t + (STAGES - 1) * G;
      const int bn = buf == 0 ? STAGES - 1 : buf - 1;  // the previous tile's buffer
      if (tn < tiles) start_copy(bn, tn);
      __pipeline_commit();
    }

    const int tr0 = warp * ROWS;
    const float4* const src = smem4 + buf * S::STAGE_VECS + tr0 * S::SV + S::V_LO + vx;
    float acc[ROWS][4];
#pragma unroll
    for (int i = 0; i < ROWS; ++i)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][e] = 0.0f;
#pragma unroll
    for (int k = 0; k < ROWS + W - 1; ++k) {
      float win[4 * S::NV];
#pragma unroll
      for (int v = 0; v < S::NV; ++v) {
        const float4 x = src[k * S::SV + v];
        win[4 * v] = x.x, win[4 * v + 1] = x.y, win[4 * v + 2] = x.z, win[4 * v + 3] = x.w;
      }
      add_input_row<W, S::OFF>(acc, win, k);
    }
    const int ty = t / tiles_x, tx = t - ty * tiles_x;
    const int col = tx * S::TX + 4 * vx, row_base = ty * S::TY + tr0;
    if (col < width) {
#pragma unroll
      for (int i = 0; i < ROWS; ++i) {
        if (row_base + i >= height) break;
        float4* const dst = reinterpret_cast<float4*>(out + static_cast<size_t>(row_base + i) * width + col);
        const float4 v = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        if constexpr (CS) __stcs(dst, v);  // streaming store: evict first from L2
        else *dst = v;
      }
    }
    if constexpr (STAGES == 1) __syncthreads();  // before the buffer is refilled
    buf = buf + 1 == STAGES ? 0 : buf + 1;
  }
}

// The whole 2-D call with a candidate (the mask copy included, as the
// reference's convolution_2d does); width % 4 == 0 and 16-byte aligned arrays.
// `with_mask` false: the kernel alone (c_mask already holds the mask).
template <int W, int ROWS, int BY, int STAGES, int MINB, bool CS = false, int BX = 1>
void convolution_2d_c(const float* in, const float* mask, float* out, int height, int width, bool persistent,
                      bool with_mask = true) {
  using S = BlockedShape<W, ROWS, BY, STAGES, BX>;
  if (with_mask) cudaMemcpyToSymbolAsync(c_mask, mask, W * W * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  static int grid_max = 0;
  auto kernel = conv2d_blocked_c<W, ROWS, BY, STAGES, MINB, CS, BX>;
  if (grid_max == 0) {
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::SMEM);
    int per_sm = 0, sms = 0, device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, S::THREADS, S::SMEM);
    grid_max = (per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1);
    std::fprintf(stderr, "conv2d_blocked_c<%d,%d,%d,%d,%d,%d,%d>: %d blocks/SM, %d bytes shared\n", W, ROWS,
                 BY, STAGES, MINB, int(CS), BX, per_sm, S::SMEM);
  }
  const int tiles_x = (width + S::TX - 1) / S::TX, tiles_y = (height + S::TY - 1) / S::TY;
  const int tiles = tiles_x * tiles_y;
  const int grid = persistent && tiles > grid_max ? grid_max : tiles;
  kernel<<<grid, S::THREADS, S::SMEM>>>(in, out, height, width, tiles_x, tiles);
}

// Strip walker: block b takes a strip of 128 * BX columns and STEPS * BY * ROWS
// rows (segments in row-major order), computing it BY * ROWS rows at a time
// from a ring of RING input rows in shared memory: each step copies only the
// rows it adds (the W - 1 rows of vertical halo stay from the step before), so
// each input row crosses L2 -> SM once per strip, not 1 + (W - 1) / TY times.
// PF: RING = IN_H + TY, the next step's rows are copied while this step
// computes (one barrier a step); else RING = IN_H, copy then compute (two).
template <int W, int ROWS, int BY, int BX, int STEPS, bool PF> struct StripShape {
  static constexpr int R = W / 2, THREADS = 32 * BX * BY, TX = 128 * BX, TY = BY * ROWS, IN_H = TY + W - 1;
  static constexpr int SEG = STEPS * TY;
  static constexpr int RING = PF ? IN_H + TY : IN_H;
  static constexpr int SV = TX / 4 + 4;
  static constexpr int V_LO = (8 - R) / 4, V_HI = (11 + R) / 4, NV = V_HI - V_LO + 1, OFF = (8 - R) - 4 * V_LO;
  static constexpr int SMEM = RING * SV * 16;
  static_assert(NV == 3, "three vectors per window row");
};

template <int W, int ROWS, int BY, int BX, int STEPS, bool PF, int MINB>
__global__ void __launch_bounds__(32 * BX * BY, MINB)
    conv2d_strip_c(const float* __restrict__ in, float* __restrict__ out, int height, int width, int tiles_x) {
  using S = StripShape<W, ROWS, BY, BX, STEPS, PF>;
  extern __shared__ float4 ring[];
  const int lane = threadIdx.x & 31, wx = (threadIdx.x >> 5) % BX, warp = (threadIdx.x >> 5) / BX;
  const int vx = 32 * wx + lane;
  const int seg = blockIdx.x / tiles_x, tx = blockIdx.x - seg * tiles_x;
  const int top = seg * S::SEG - S::R;  // input row at ring offset 0
  const int cbase = tx * S::TX - 8;     // input column of shared vector 0
  const bool cols_inside = cbase + 4 * S::V_LO >= 0 && cbase + 4 * (S::V_HI + 32 * BX) <= width;
  // Copies input rows at offsets off0 .. off0 + n - 1 (from `top`) into their ring slots (no commit).
  auto copy_rows = [&](int off0, int n) {
    int slot = (off0 + warp) % S::RING;
    const bool inside = cols_inside && top + off0 >= 0 && top + off0 + n <= height;
    for (int r = warp; r < n; r += BY) {
      const int g = top + off0 + r;
      float4* const dst = ring + slot * S::SV;
      if (inside) {
        const float* row = in + static_cast<size_t>(g) * width + cbase;
        __pipeline_memcpy_async(&dst[S::V_LO + vx], row + 4 * (S::V_LO + vx), 16);
        if (wx == 0 && lane < S::NV - 1)
          __pipeline_memcpy_async(&dst[S::V_LO + 32 * BX + lane], row + 4 * (S::V_LO + 32 * BX + lane), 16);
      } else {
        const bool row_in = g >= 0 && g < height;
        const float* row = in + static_cast<size_t>(row_in ? g : 0) * width;
        const int c0 = cbase + 4 * (S::V_LO + vx), c1 = cbase + 4 * (S::V_LO + 32 * BX + lane);
        const bool in0 = row_in && c0 >= 0 && c0 < width, in1 = row_in && c1 >= 0 && c1 < width;
        __pipeline_memcpy_async(&dst[S::V_LO + vx], in0 ? row + c0 : in, 16, in0 ? 0 : 16);
        if (wx == 0 && lane < S::NV - 1)
          __pipeline_memcpy_async(&dst[S::V_LO + 32 * BX + lane], in1 ? row + c1 : in, 16, in1 ? 0 : 16);
      }
      slot += BY;
      if (slot >= S::RING) slot -= S::RING;
    }
  };
  const int steps = min(STEPS, (height - seg * S::SEG + S::TY - 1) / S::TY);
  copy_rows(0, S::IN_H);
  __pipeline_commit();
  for (int s = 0; s < steps; ++s) {
    if (!PF && s > 0) {
      copy_rows(s * S::TY + S::IN_H - S::TY, S::TY);
      __pipeline_commit();
    }
    __pipeline_wait_prior(0);
    __syncthreads();
    if (PF && s + 1 < steps) {  // the next step's new rows, into slots no one reads in this step
      copy_rows((s + 1) * S::TY + S::IN_H - S::TY, S::TY);
      __pipeline_commit();
    }
    const int tr0 = warp * ROWS;
    const int slot0 = (s * S::TY + tr0) % S::RING;
    float acc[ROWS][4];
#pragma unroll
    for (int i = 0; i < ROWS; ++i)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][e] = 0.0f;
#pragma unroll
    for (int k = 0; k < ROWS + W - 1; ++k) {
      int slot = slot0 + k;
      if (slot >= S::RING) slot -= S::RING;
      const float4* const src = ring + slot * S::SV + S::V_LO + vx;
      float win[4 * S::NV];
#pragma unroll
      for (int v = 0; v < S::NV; ++v) {
        const float4 x = src[v];
        win[4 * v] = x.x, win[4 * v + 1] = x.y, win[4 * v + 2] = x.z, win[4 * v + 3] = x.w;
      }
      add_input_row<W, S::OFF>(acc, win, k);
    }
    const int col = tx * S::TX + 4 * vx, row_base = seg * S::SEG + s * S::TY + tr0;
    if (col < width) {
#pragma unroll
      for (int i = 0; i < ROWS; ++i) {
        if (row_base + i >= height) break;
        *reinterpret_cast<float4*>(out + static_cast<size_t>(row_base + i) * width + col) =
            make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
      }
    }
    if (!PF) __syncthreads();  // everyone is done with this step's rows before the next copy
  }
}

template <int W, int ROWS, int BY, int BX, int STEPS, bool PF, int MINB>
void convolution_2d_strip(const float* in, const float* mask, float* out, int height, int width) {
  using S = StripShape<W, ROWS, BY, BX, STEPS, PF>;
  cudaMemcpyToSymbolAsync(c_mask, mask, W * W * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  auto kernel = conv2d_strip_c<W, ROWS, BY, BX, STEPS, PF, MINB>;
  static bool once = false;
  if (!once) {
    once = true;
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::SMEM);
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, S::THREADS, S::SMEM);
    std::fprintf(stderr, "conv2d_strip_c<%d,%d,%d,%d,%d,%d,%d>: %d blocks/SM, %d bytes shared\n", W, ROWS, BY, BX,
                 STEPS, int(PF), MINB, per_sm, S::SMEM);
  }
  const int tiles_x = (width + S::TX - 1) / S::TX, segs = (height + S::SEG - 1) / S::SEG;
  kernel<<<tiles_x * segs, S::THREADS, S::SMEM>>>(in, out, height, width, tiles_x);
}
