// Candidate 2-D convolution kernel for the reference (timed by
// convolution_variants.cu, included inside the reference's namespace so that it
// shares its __constant__ mask). Register blocking: a thread computes 4 adjacent
// columns x ROWS rows, each input row of its window read from shared memory as
// three 16-byte vectors (LDS.128) and multiplied into every output row that uses
// it, the mask values constant-bank operands of the FFMAs (the loops unrolled per
// mask width). Tiles of 128 columns x (BY * ROWS) rows are copied with 16-byte
// cp.async into two shared buffers, by a persistent grid (as many blocks as fit
// on the device) walking the tiles row band by row band, so that halo rows come
// from L2. Rows must be whole 16-byte groups (width % 4 == 0, 16-byte aligned
// arrays) and the mask 5 x 5 or 7 x 7; other cases take the reference's path.
// Measured on the H200 (2026-11-29, docs/performance.md): 4 x 8 with BY = 4 ties
// the reference at 7 x 7 (0.674x copy) and loses at 5 x 5 (0.80x against 0.86x);
// BY = 8, 4 x 4 x 8 warps and 4 x 16 lost and were removed. LEAN (the cheaper
// copy of interior tiles) is the next thing to measure.
// The sums are written acc += a * b (contracted to FFMA): written with fmaf(),
// the front end placed all 42 shared loads of the unrolled loop before the
// FFMAs, 227 registers at 7 x 7 (spills under any cap).

// 4 columns x ROWS rows per thread, 32 x BY threads: 128 x (BY * ROWS) outputs
// per tile. MINB: resident blocks per SM the register allocation must allow
// (shared memory allows 5 of 4 x 8 x 4 warps; it uses 80 registers, 96 with LEAN).
template <int W, int ROWS, int BY, int MINB> struct Blocked2D {
  static constexpr int R = W / 2;
  static constexpr int THREADS = 32 * BY;
  static constexpr int TX = 128, TY = BY * ROWS;
  static constexpr int IN_H = TY + W - 1;  // input rows of a tile
  // Shared vector v of a row holds input columns col0 - 8 + 4v .. +3 (0 <= v < SV).
  static constexpr int SV = TX / 4 + 4;
  // Thread x's outputs are shared columns 8 + 4x .. 11 + 4x; its window, columns
  // 8 + 4x - R .. 11 + 4x + R, lies in vectors x + V_LO .. x + V_HI.
  static constexpr int V_LO = (8 - R) / 4, V_HI = (11 + R) / 4, NV = V_HI - V_LO + 1;
  static constexpr int OFF = (8 - R) - 4 * V_LO;  // window start in the first vector
  static constexpr int COPY_V = 31 + NV;          // vectors of a row that are read: V_LO .. 31 + V_HI
  static constexpr size_t SHARED_BYTES = 2u * IN_H * SV * 16;
  static_assert(R <= 4, "the window lies within the 8-column halo");
};

// LEAN: tiles whose input lies wholly inside the image (all but the border ones)
// are copied with one 16-byte copy per thread per row and pointer increments
// (the extra NV - 1 vectors of every row in one more pass over all rows), no
// range tests; border tiles as below. Nsight Compute counted 149M warp
// instructions for 103M FFMAs at 7 x 7 without it (709 besides the 1568 FFMAs
// per warp and tile): the per-row tests, selects and the second, nearly idle
// copy of each row are, by the PTX, the largest part of that.
template <int W, int ROWS, int BY, int MINB, bool LEAN>
__global__ void __launch_bounds__(32 * BY, MINB) conv2d_blocked(const float* __restrict__ in, float* __restrict__ out,
                                                                int height, int width, int tiles_x, int tiles) {
  using S = Blocked2D<W, ROWS, BY, MINB>;
  extern __shared__ float4 smem_v[];
  float4(*tile)[S::IN_H][S::SV] = reinterpret_cast<float4(*)[S::IN_H][S::SV]>(smem_v);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  // Starts the copy of tile t's input (and halo) into tile[buf]: warp w copies
  // rows w, w + BY, ..., lane l vector V_LO + l of each and, for l < NV - 1, vector
  // V_LO + 32 + l; ghost cells zero-filled.
  auto start_copy = [&](int buf, int t) {
    const int ty = t / tiles_x, tx = t - ty * tiles_x;
    const int row0 = ty * S::TY - S::R, c0 = tx * S::TX - 8 + 4 * (S::V_LO + lane), c1 = c0 + 128;
    if (LEAN && row0 >= 0 && row0 + S::IN_H <= height && tx * S::TX - 8 + 4 * S::V_LO >= 0 &&
        tx * S::TX - 8 + 4 * (S::V_HI + 32) <= width) {
      const float* src = in + static_cast<size_t>(row0 + warp) * width + c0;
      const size_t step = static_cast<size_t>(BY) * width;
#pragma unroll
      for (int r = warp, k = 0; k < (S::IN_H + BY - 1) / BY; ++k, r += BY, src += step)
        if (k < S::IN_H / BY || r < S::IN_H) __pipeline_memcpy_async(&tile[buf][r][S::V_LO + lane], src, 16);
      // The last NV - 1 vectors of every row: thread i takes row i / (NV - 1).
      if constexpr (S::NV > 1) {
        for (int i = threadIdx.x; i < S::IN_H * (S::NV - 1); i += S::THREADS) {
          const int r = i / (S::NV - 1), v = S::V_LO + 32 + i % (S::NV - 1);
          __pipeline_memcpy_async(&tile[buf][r][v], in + static_cast<size_t>(row0 + r) * width + tx * S::TX - 8 + 4 * v,
                                  16);
        }
      }
      __pipeline_commit();
      return;
    }
    const bool in0 = c0 >= 0 && c0 < width, in1 = lane < S::NV - 1 && c1 < width;
    for (int r = warp; r < S::IN_H; r += BY) {
      const int gr = row0 + r;
      const bool row_in = gr >= 0 && gr < height;
      const float* row = in + static_cast<size_t>(row_in ? gr : 0) * width;
      __pipeline_memcpy_async(&tile[buf][r][S::V_LO + lane], row_in && in0 ? row + c0 : in, 16, row_in && in0 ? 0 : 16);
      if (lane < S::NV - 1)
        __pipeline_memcpy_async(&tile[buf][r][S::V_LO + 32 + lane], row_in && in1 ? row + c1 : in, 16,
                                row_in && in1 ? 0 : 16);
    }
    __pipeline_commit();
  };

  int t = blockIdx.x;
  if (t < tiles) start_copy(0, t);
  for (int n = 0; t < tiles; t += gridDim.x, ++n) {
    const int buf = n & 1;
    if (t + static_cast<int>(gridDim.x) < tiles) {
      start_copy(buf ^ 1, t + gridDim.x);
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();

    float acc[ROWS][4];
#pragma unroll
    for (int i = 0; i < ROWS; ++i)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][e] = 0.0f;
    const int tr0 = warp * ROWS;
#pragma unroll
    for (int k = 0; k < ROWS + W - 1; ++k) {
      float win[4 * S::NV];
#pragma unroll
      for (int v = 0; v < S::NV; ++v) {
        const float4 x = tile[buf][tr0 + k][lane + S::V_LO + v];
        win[4 * v] = x.x, win[4 * v + 1] = x.y, win[4 * v + 2] = x.z, win[4 * v + 3] = x.w;
      }
#pragma unroll
      for (int i = 0; i < ROWS; ++i) {
        const int mrow = k - i;
        if (mrow < 0 || mrow >= W) continue;
#pragma unroll
        for (int j = 0; j < W; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[i][e] += win[S::OFF + e + j] * c_mask[mrow * W + j];
      }
    }

    const int ty = t / tiles_x, tx = t - ty * tiles_x;
    const int col = tx * S::TX + 4 * lane, row_base = ty * S::TY + tr0;
    if (col < width) {
#pragma unroll
      for (int i = 0; i < ROWS; ++i) {
        if (row_base + i >= height) break;
        *reinterpret_cast<float4*>(out + static_cast<size_t>(row_base + i) * width + col) =
            make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
      }
    }
    __syncthreads();  // everyone is done with tile[buf] before it is refilled
  }
}

template <int W, int ROWS, int BY, int MINB, bool LEAN>
void launch_blocked(const float* in, float* out, int height, int width) {
  using S = Blocked2D<W, ROWS, BY, MINB>;
  static int grid_max = 0;
  if (grid_max == 0) {
    cudaFuncSetAttribute(conv2d_blocked<W, ROWS, BY, MINB, LEAN>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         static_cast<int>(S::SHARED_BYTES));
    int per_sm = 0, sms = 0, device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, conv2d_blocked<W, ROWS, BY, MINB, LEAN>, S::THREADS,
                                                  S::SHARED_BYTES);
    grid_max = (per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1);
  }
  const int tiles_x = (width + S::TX - 1) / S::TX, tiles_y = (height + S::TY - 1) / S::TY;
  const int tiles = tiles_x * tiles_y;
  const int grid = tiles < grid_max ? tiles : grid_max;
  conv2d_blocked<W, ROWS, BY, MINB, LEAN><<<grid, S::THREADS, S::SHARED_BYTES>>>(in, out, height, width, tiles_x, tiles);
}

// Masks 5 and 7 on whole 16-byte rows take the candidate; everything else the reference.
template <int ROWS, int BY, int MINB, bool LEAN = false>
void convolution_2d_blocked(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  const bool aligned =
      width % 4 == 0 && reinterpret_cast<uintptr_t>(in) % 16 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
  if (!aligned || (mask_width != 5 && mask_width != 7) || height <= 0) {
    convolution_2d(in, mask, out, height, width, mask_width);
    return;
  }
  cudaMemcpyToSymbolAsync(c_mask, mask, mask_width * mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  if (mask_width == 5) launch_blocked<5, ROWS, BY, MINB, LEAN>(in, out, height, width);
  else launch_blocked<7, ROWS, BY, MINB, LEAN>(in, out, height, width);
}
