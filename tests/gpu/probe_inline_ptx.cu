// Prints what the one-instruction inline PTX idioms of course code give, as
// a GPU computes them: moves from special registers (%laneid, %lanemask_*,
// %tid/%ntid/%ctaid/%nctaid; %warpid, %smid, %clock, %clock64 and
// %globaltimer only as checks of their ranges, since the hardware chooses
// them), prmt in every mode, brev, bfe, bfi, bfind, popc, clz, lop3,
// shfl.sync in every mode with segments and the in-range predicate,
// vote.sync, activemask, ld.global.nc (.v2, .v4), st, ld/st.shared through
// cvta.to.shared, cvta round trips, membar/fence, bar.sync and cp.async.
// Run on a GPU, its output is recorded in expected/; the emulator must print
// the same lines.
#include <cstdint>
#include <cstdio>

// ---- one thread: bit manipulation ----

__device__ unsigned prmt(unsigned a, unsigned b, unsigned c) {
  unsigned d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
__device__ unsigned prmt_mode(int mode, unsigned a, unsigned b, unsigned c) {
  unsigned d = 0;
  switch (mode) {
    case 1: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 2: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 3: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 4: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 5: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case 6: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
  }
  return d;
}

__global__ void bits(unsigned* u, unsigned long long* w) {
  const unsigned a = 0x8811f2a3u, b = 0x44c55e96u;
  int n = 0;
  const unsigned selectors[] = {0x3210u, 0x7654u, 0x0123u, 0x4e5au, 0x8888u, 0xf0b4u, 0x1111u, 0xcdefu};
  for (unsigned s : selectors) u[n++] = prmt(a, b, s);
  for (int mode = 1; mode <= 6; ++mode)
    for (unsigned c = 0; c < 4; ++c) u[n++] = prmt_mode(mode, a, b, c + 4 * mode);
  unsigned r;
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(0x12345678u));
  u[n++] = r;
  const unsigned starts[] = {0, 4, 28, 30, 31, 32, 200, 260};
  const unsigned lengths[] = {0, 1, 4, 8, 31, 32, 33, 255};
  for (unsigned p : starts) {
    for (unsigned l : lengths) {
      unsigned eu;
      int es;
      asm("bfe.u32 %0, %1, %2, %3;" : "=r"(eu) : "r"(a), "r"(p), "r"(l));
      asm("bfe.s32 %0, %1, %2, %3;" : "=r"(es) : "r"(a), "r"(p), "r"(l));
      u[n++] = eu;
      u[n++] = static_cast<unsigned>(es);
      unsigned f;
      asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(f) : "r"(b), "r"(a), "r"(p), "r"(l));
      u[n++] = f;
    }
  }
  const int signed_values[] = {0, 1, -1, 0x40000000, -0x40000001, static_cast<int>(0x80000000u)};
  for (int v : signed_values) {
    unsigned fu, fs, sh;
    asm("bfind.u32 %0, %1;" : "=r"(fu) : "r"(v));
    asm("bfind.s32 %0, %1;" : "=r"(fs) : "r"(v));
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(sh) : "r"(v));
    u[n++] = fu;
    u[n++] = fs;
    u[n++] = sh;
    unsigned pc, cz;
    asm("popc.b32 %0, %1;" : "=r"(pc) : "r"(v));
    asm("clz.b32 %0, %1;" : "=r"(cz) : "r"(v));
    u[n++] = pc;
    u[n++] = cz;
  }
  unsigned l0, l1, l2, l3, l4, l5, l6, l7;
  asm("lop3.b32 %0, %1, %2, %3, 0x80;" : "=r"(l0) : "r"(a), "r"(b), "r"(0x0ff00ff0u));
  asm("lop3.b32 %0, %1, %2, %3, 0xfe;" : "=r"(l1) : "r"(a), "r"(b), "r"(0x0ff00ff0u));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(l2) : "r"(a), "r"(b), "r"(0x0ff00ff0u));
  asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(l3) : "r"(a), "r"(b), "r"(0x0ff00ff0u));
  asm("lop3.b32 %0, %1, %2, %3, 0x1a;" : "=r"(l4) : "r"(a), "r"(b), "r"(0x0ff00ff0u));
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(l5) : "r"(a), "r"(b), "r"(0x0ff00ff0u), "n"(0xca));
  asm("lop3.b32 %0, %1, %2, %3, 0x00;" : "=r"(l6) : "r"(a), "r"(b), "r"(0x0ff00ff0u));
  asm("lop3.b32 %0, %1, %2, %3, 0xff;" : "=r"(l7) : "r"(a), "r"(b), "r"(0x0ff00ff0u));
  u[n++] = l0, u[n++] = l1, u[n++] = l2, u[n++] = l3, u[n++] = l4, u[n++] = l5, u[n++] = l6, u[n++] = l7;
  // A small .reg block: setp, selp, cvt and integer glue around the instructions.
  unsigned g;
  asm("{\n\t.reg .pred p;\n\t.reg .u32 t;\n\tsetp.gt.s32 p, %1, 5;\n\tselp.u32 t, 100, 200, p;\n\t"
      "add.u32 t, t, %1;\n\tshl.b32 t, t, 2;\n\tmov.u32 %0, t;\n\t}"
      : "=r"(g)
      : "r"(7));
  u[n++] = g;
  unsigned long long x;
  asm("brev.b64 %0, %1;" : "=l"(x) : "l"(0x0123456789abcdefull));
  w[0] = x;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(x) : "l"(0xf0123456789abcdeull), "r"(20), "r"(40));
  w[1] = x;
  long long xs;
  asm("bfe.s64 %0, %1, %2, %3;" : "=l"(xs) : "l"(0xf0123456789abcdeull), "r"(40), "r"(30));
  w[2] = static_cast<unsigned long long>(xs);
  asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(x) : "l"(0xabcdull), "l"(0x1111111111111111ull), "r"(60), "r"(16));
  w[3] = x;
  unsigned lo, hi;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(0x1122334455667788ull));
  asm("mov.b64 %0, {%1, %2};" : "=l"(x) : "r"(hi), "r"(lo));
  w[4] = x;
  int narrowed;
  asm("cvt.s32.s64 %0, %1;" : "=r"(narrowed) : "l"(-5ll));
  w[5] = static_cast<unsigned long long>(static_cast<long long>(narrowed));
  u[n++] = 0xdeadbeefu;  // end marker
}

// ---- one block of 48 threads (a full warp and 16 lanes): special registers and warps ----

struct WarpOut {
  unsigned lane, lt, le, eq, ge, gt, tid, ntid, ctaid, nctaid;
  unsigned ranges;  // bit 0 warpid < nwarpid, 1 smid < nsmid, 2 clock64 monotonic, 3 globaltimer advancing
  unsigned up, down, bfly, idx, up_seg, down_seg, bfly_seg, idx_seg, preds;
  unsigned all, any, uni, ballot, uni_const, active, partial_ballot;
};

__global__ void warps(WarpOut* out) {
  WarpOut o{};
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(o.lane));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(o.lt));
  asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(o.le));
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(o.eq));
  asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(o.ge));
  asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(o.gt));
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(o.tid));
  asm volatile("mov.u32 %0, %%ntid.x;" : "=r"(o.ntid));
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(o.ctaid));
  asm volatile("mov.u32 %0, %%nctaid.x;" : "=r"(o.nctaid));
  unsigned warpid, nwarpid, smid, nsmid, c32;
  unsigned long long c0, c1, g0, g1;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
  asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c32));
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(g0));
  unsigned spin = 0;
  for (int i = 0; i < 20000; ++i) spin += static_cast<unsigned>(i) ^ c32;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  } while (g1 == g0);
  o.ranges = (warpid < nwarpid ? 1u : 0u) | (smid < nsmid ? 2u : 0u) | (c1 > c0 ? 4u : 0u) |
             (g1 > g0 && g0 > 0 ? 8u : 0u) | (spin == 0xffffffffu ? 16u : 0u);
  const unsigned lane = o.lane;
  if (threadIdx.x < 32) {
    const unsigned v = 1000 + lane * 7;
    bool p0, p1, p2, p3;
    asm volatile("shfl.sync.up.b32 %0, %1, 3, 0, 0xffffffff;" : "=r"(o.up) : "r"(v));
    asm volatile("shfl.sync.down.b32 %0, %1, 5, 0x1f, 0xffffffff;" : "=r"(o.down) : "r"(v));
    asm volatile("shfl.sync.bfly.b32 %0, %1, 9, 0x1f, 0xffffffff;" : "=r"(o.bfly) : "r"(v));
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(o.idx) : "r"(v), "r"(lane * 5 + 3));
    // Segments of 8 lanes: c = ((32 - 8) << 8) | clamp.
    asm volatile("{\n\t.reg .pred q;\n\tshfl.sync.up.b32 %0|q, %2, 3, 0x1800, 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                 : "=r"(o.up_seg), "=r"(o.preds)
                 : "r"(v));
    p0 = o.preds != 0;
    asm volatile("{\n\t.reg .pred q;\n\tshfl.sync.down.b32 %0|q, %2, 3, 0x181f, 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                 : "=r"(o.down_seg), "=r"(o.preds)
                 : "r"(v));
    p1 = o.preds != 0;
    asm volatile("{\n\t.reg .pred q;\n\tshfl.sync.bfly.b32 %0|q, %2, 12, 0x181f, 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                 : "=r"(o.bfly_seg), "=r"(o.preds)
                 : "r"(v));
    p2 = o.preds != 0;
    asm volatile("{\n\t.reg .pred q;\n\tshfl.sync.idx.b32 %0|q, %2, %3, 0x181f, 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                 : "=r"(o.idx_seg), "=r"(o.preds)
                 : "r"(v), "r"(lane + 13));
    p3 = o.preds != 0;
    o.preds = (p0 ? 1u : 0u) | (p1 ? 2u : 0u) | (p2 ? 4u : 0u) | (p3 ? 8u : 0u);
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.lt.u32 p, %1, 40;\n\tvote.sync.all.pred q, p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(o.all)
                 : "r"(lane));
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.eq.u32 p, %1, 17;\n\tvote.sync.any.pred q, p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(o.any)
                 : "r"(lane));
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.lt.u32 p, %1, 16;\n\tvote.sync.uni.pred q, p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(o.uni)
                 : "r"(lane));
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %1, 99;\n\tvote.sync.uni.pred q, p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(o.uni_const)
                 : "r"(lane));
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, !p, 0xffffffff;\n\t}"
                 : "=r"(o.ballot)
                 : "r"(lane % 3));
    if (lane % 2 == 0) {
      asm volatile("{\n\t.reg .pred p;\n\tsetp.lt.u32 p, %1, 20;\n\tvote.sync.ballot.b32 %0, p, 0x55555555;\n\t}"
                   : "=r"(o.partial_ballot)
                   : "r"(lane));
    }
    __syncwarp();
  }
  asm volatile("activemask.b32 %0;" : "=r"(o.active));
  out[threadIdx.x] = o;
}

// ---- memory: ld.global.nc, st, shared through cvta, fences, barriers, cp.async ----

__global__ void memory(const float4* in4, const uint2* in2, const unsigned* in1, float* out, unsigned* flags) {
  __shared__ unsigned tile[64];
  __shared__ __align__(16) float staged[4 * 32];
  const unsigned t = threadIdx.x;
  float x, y, z, w;
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "l"(in4 + t));
  unsigned a, b, c;
  asm volatile("ld.global.nc.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(in2 + t));
  asm volatile("ld.global.nc.u32 %0, [%1+4];" : "=r"(c) : "l"(in1 + t));
  unsigned smem;
  asm volatile("{\n\t.reg .u64 s;\n\tcvta.to.shared.u64 s, %1;\n\tcvt.u32.u64 %0, s;\n\t}" : "=r"(smem) : "l"(&tile[t]));
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(smem), "r"(a + c));
  asm volatile("bar.sync 0;" ::: "memory");
  unsigned neighbour;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(neighbour) : "r"(smem ^ 4u));
  unsigned long long back, global_back;
  asm volatile("cvta.shared.u64 %0, %1;" : "=l"(back) : "l"(static_cast<unsigned long long>(smem)));
  asm volatile("{\n\t.reg .u64 g;\n\tcvta.to.global.u64 g, %1;\n\tcvta.global.u64 %0, g;\n\t}"
               : "=l"(global_back)
               : "l"(in1 + t));
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("membar.cta;" ::: "memory");
  asm volatile("fence.sc.gpu;" ::: "memory");
  asm volatile("barrier.sync 0;" ::: "memory");
  // cp.async: 16 bytes per thread into shared memory, then read by another thread.
  unsigned dst;
  asm volatile("{\n\t.reg .u64 s;\n\tcvta.to.shared.u64 s, %1;\n\tcvt.u32.u64 %0, s;\n\t}"
               : "=r"(dst)
               : "l"(&staged[4 * t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(in4 + t + 1) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  asm volatile("bar.sync 0;" ::: "memory");
  const unsigned other = (t + 5) % 32;
  asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(out + 8 * t), "f"(x + y), "f"(z * w),
               "f"(staged[4 * other]), "f"(staged[4 * other + 3])
               : "memory");
  asm volatile("st.global.v2.f32 [%0], {%1, %2};" ::"l"(out + 8 * t + 4), "f"(static_cast<float>(b)),
               "f"(static_cast<float>(neighbour)));
  asm volatile("st.global.u32 [%0], %1;" ::"l"(flags + t),
               "r"((back == reinterpret_cast<unsigned long long>(&tile[t]) ? 1u : 0u) |
                   (global_back == reinterpret_cast<unsigned long long>(in1 + t) ? 2u : 0u)));
}

int main() {
  unsigned* u;
  unsigned long long* w;
  cudaMallocManaged(&u, 1024 * sizeof(unsigned));
  cudaMallocManaged(&w, 8 * sizeof(unsigned long long));
  bits<<<1, 1>>>(u, w);
  printf("bits: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int n = 0;
  printf("prmt:");
  for (int i = 0; i < 8; ++i) printf(" %08x", u[n++]);
  printf("\n");
  for (int mode = 1; mode <= 6; ++mode) {
    printf("prmt mode %d:", mode);
    for (int c = 0; c < 4; ++c) printf(" %08x", u[n++]);
    printf("\n");
  }
  printf("brev.b32: %08x\n", u[n++]);
  for (int p = 0; p < 8; ++p) {
    printf("bfe.u32/bfe.s32/bfi start %d:", p);
    for (int l = 0; l < 8; ++l, n += 3) printf(" %x/%x/%x", u[n], u[n + 1], u[n + 2]);
    printf("\n");
  }
  printf("bfind.u32/bfind.s32/bfind.shiftamt/popc/clz:");
  for (int i = 0; i < 6; ++i, n += 5) printf(" %x/%x/%x/%u/%u", u[n], u[n + 1], u[n + 2], u[n + 3], u[n + 4]);
  printf("\n");
  printf("lop3:");
  for (int i = 0; i < 8; ++i) printf(" %08x", u[n++]);
  printf("\n");
  printf("setp/selp/add/shl: %u\n", u[n++]);
  printf("end marker: %08x\n", u[n++]);
  printf("brev.b64 %016llx bfe.u64 %llx bfe.s64 %llx bfi.b64 %016llx mov.b64 pack %016llx cvt.s32.s64 %lld\n", w[0],
         w[1], w[2], w[3], w[4], static_cast<long long>(w[5]));

  WarpOut* wo;
  cudaMallocManaged(&wo, 48 * sizeof(WarpOut));
  warps<<<1, 48>>>(wo);
  printf("warps: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  for (int t = 0; t < 48; ++t) {
    const WarpOut& o = wo[t];
    printf("t%02d lane %u lanemask lt %08x le %08x eq %08x ge %08x gt %08x tid %u ntid %u ctaid %u nctaid %u ranges %x"
           " active %08x",
           t, o.lane, o.lt, o.le, o.eq, o.ge, o.gt, o.tid, o.ntid, o.ctaid, o.nctaid, o.ranges, o.active);
    if (t < 32) {
      printf(" shfl %u %u %u %u seg %u %u %u %u p %x vote %u %u %u %u %08x", o.up, o.down, o.bfly, o.idx, o.up_seg,
             o.down_seg, o.bfly_seg, o.idx_seg, o.preds, o.all, o.any, o.uni, o.uni_const, o.ballot);
      if (t % 2 == 0) printf(" partial %08x", o.partial_ballot);
    }
    printf("\n");
  }

  float4* in4;
  uint2* in2;
  unsigned* in1;
  float* out;
  unsigned* flags;
  cudaMallocManaged(&in4, 33 * sizeof(float4));
  cudaMallocManaged(&in2, 32 * sizeof(uint2));
  cudaMallocManaged(&in1, 33 * sizeof(unsigned));
  cudaMallocManaged(&out, 8 * 32 * sizeof(float));
  cudaMallocManaged(&flags, 32 * sizeof(unsigned));
  for (int i = 0; i < 33; ++i) {
    in4[i] = make_float4(i * 1.5f, i - 0.25f, i * 2.0f, 3.0f - i);
    in1[i] = 7u * i + 1u;
    if (i < 32) in2[i] = make_uint2(100u + i, 200u + 3u * i);
  }
  memory<<<1, 32>>>(in4, in2, in1, out, flags);
  printf("memory: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  for (int t = 0; t < 32; ++t) {
    printf("m%02d %g %g %g %g %g %g flags %u\n", t, out[8 * t], out[8 * t + 1], out[8 * t + 2], out[8 * t + 3],
           out[8 * t + 4], out[8 * t + 5], flags[t]);
  }
  return 0;
}
