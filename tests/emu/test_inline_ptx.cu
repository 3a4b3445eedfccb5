// Conformance: inline PTX. The values each instruction gives, worked out by hand
// from the PTX ISA's definitions (prmt in every mode, brev, bfe and bfi at the
// edges, bfind, popc, clz, lop3's truth tables), and the lane-by-lane results of
// the ISA's pseudocode for shfl.sync (segments, clamps, the in-range predicate)
// and vote.sync, against special registers, loads through .nc and vectors,
// shared memory through cvta.to.shared, and cp.async. Plain CUDA: it also builds
// with nvcc (tests/gpu/probe_inline_ptx.cu prints the same on a GPU).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

namespace {

__device__ unsigned prmt(unsigned a, unsigned b, unsigned c) {
  unsigned d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

__global__ void bit_ops(unsigned* u, unsigned long long* w) {
  const unsigned a = 0x8811f2a3u, b = 0x44c55e96u, c = 0x0ff00ff0u;
  unsigned* o = u;
  *o++ = prmt(a, b, 0x3210u);
  *o++ = prmt(a, b, 0x7654u);
  *o++ = prmt(a, b, 0x0123u);
  *o++ = prmt(a, b, 0x8888u);
  *o++ = prmt(a, b, 0xcdefu);
  unsigned d;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(1));
  *o++ = d;
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0));
  *o++ = d;
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(2));
  *o++ = d;
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(1));
  *o++ = d;
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(2));
  *o++ = d;
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(5));  // only c[1:0] counts
  *o++ = d;
  asm("brev.b32 %0, %1;" : "=r"(d) : "r"(0x12345678u));
  *o++ = d;
  int s;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(4), "r"(8));
  *o++ = d;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(28), "r"(4));
  *o++ = static_cast<unsigned>(s);
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(30), "r"(8));  // runs past the msb
  *o++ = static_cast<unsigned>(s);
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(30), "r"(8));
  *o++ = d;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(4), "r"(0));  // length 0
  *o++ = static_cast<unsigned>(s);
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(a), "r"(0x120), "r"(0x101));  // pos 32, len 1 (8 bits each)
  *o++ = static_cast<unsigned>(s);
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(b), "r"(a), "r"(4), "r"(8));
  *o++ = d;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(b), "r"(a), "r"(28), "r"(8));  // clipped at the msb
  *o++ = d;
  asm("bfind.u32 %0, %1;" : "=r"(d) : "r"(0u));
  *o++ = d;
  asm("bfind.s32 %0, %1;" : "=r"(d) : "r"(-0x40000001));
  *o++ = d;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(d) : "r"(1u));
  *o++ = d;
  asm("popc.b32 %0, %1;" : "=r"(d) : "r"(-1));
  *o++ = d;
  asm("clz.b32 %0, %1;" : "=r"(d) : "r"(1));
  *o++ = d;
  asm("lop3.b32 %0, %1, %2, %3, 0x80;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  *o++ = d;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  *o++ = d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(0xca));
  *o++ = d;
  asm("{\n\t.reg .pred p;\n\t.reg .u32 t;\n\tsetp.gt.s32 p, %1, 5;\n\tselp.u32 t, 100, 200, p;\n\t"
      "add.u32 t, t, %1;\n\tshl.b32 t, t, 2;\n\tmov.u32 %0, t;\n\t}"
      : "=r"(d)
      : "r"(7));
  *o++ = d;
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
}

struct Lanes {
  unsigned lane, lt, le, eq, gt, ge, tid, ntid, ctaid, warpid_ok, smid_ok;
  unsigned up, down, bfly, idx, up_seg, up_pred, bfly_seg, bfly_pred, ballot, all, any, uni, active;
};

__global__ void lanes(Lanes* out) {
  Lanes o{};
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(o.lane));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(o.lt));
  asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(o.le));
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(o.eq));
  asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(o.gt));
  asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(o.ge));
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(o.tid));
  asm volatile("mov.u32 %0, %%ntid.x;" : "=r"(o.ntid));
  asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(o.ctaid));
  unsigned warpid, nwarpid, smid, nsmid;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
  asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nwarpid));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
  o.warpid_ok = warpid < nwarpid;
  o.smid_ok = smid < nsmid;
  const unsigned v = 1000 + o.tid * 7;
  if (o.tid < 32) {
    asm volatile("shfl.sync.up.b32 %0, %1, 3, 0, 0xffffffff;" : "=r"(o.up) : "r"(v));
    asm volatile("shfl.sync.down.b32 %0, %1, 5, 0x1f, 0xffffffff;" : "=r"(o.down) : "r"(v));
    asm volatile("shfl.sync.bfly.b32 %0, %1, 9, 0x1f, 0xffffffff;" : "=r"(o.bfly) : "r"(v));
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(o.idx) : "r"(v), "r"(o.lane * 5 + 3));
    asm volatile("{\n\t.reg .pred q;\n\tshfl.sync.up.b32 %0|q, %2, 3, 0x1800, 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                 : "=r"(o.up_seg), "=r"(o.up_pred)
                 : "r"(v));
    asm volatile("{\n\t.reg .pred q;\n\tshfl.sync.bfly.b32 %0|q, %2, 12, 0x181f, 0xffffffff;\n\tselp.u32 %1, 1, 0, q;\n\t}"
                 : "=r"(o.bfly_seg), "=r"(o.bfly_pred)
                 : "r"(v));
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, !p, 0xffffffff;\n\t}"
                 : "=r"(o.ballot)
                 : "r"(o.lane % 3));
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.lt.u32 p, %1, 40;\n\tvote.sync.all.pred q, p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(o.all)
                 : "r"(o.lane));
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.eq.u32 p, %1, 17;\n\tvote.sync.any.pred q, p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(o.any)
                 : "r"(o.lane));
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.lt.u32 p, %1, 16;\n\tvote.sync.uni.pred q, p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, q;\n\t}"
                 : "=r"(o.uni)
                 : "r"(o.lane));
  }
  asm volatile("activemask.b32 %0;" : "=r"(o.active));
  out[o.tid] = o;
}

__global__ void memory(const float4* in4, const unsigned* in1, float* out, unsigned* flags) {
  __shared__ unsigned tile[32];
  __shared__ __align__(16) float staged[4 * 32];
  const unsigned t = threadIdx.x;
  float x, y, z, w;
  asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "l"(in4 + t));
  unsigned c;
  asm volatile("ld.global.nc.u32 %0, [%1+4];" : "=r"(c) : "l"(in1 + t));
  unsigned smem;
  asm volatile("{\n\t.reg .u64 s;\n\tcvta.to.shared.u64 s, %1;\n\tcvt.u32.u64 %0, s;\n\t}" : "=r"(smem) : "l"(&tile[t]));
  if (static_cast<size_t>(smem) != __cvta_generic_to_shared(&tile[t]) || __cvta_shared_to_generic(smem) != &tile[t]) {
    smem = 0xdead;  // the intrinsics and the instruction disagree: the checks below fail
  }
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(smem), "r"(c));
  asm volatile("bar.sync 0;" ::: "memory");
  unsigned neighbour;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(neighbour) : "r"(smem ^ 4u));
  unsigned long long back;
  asm volatile("cvta.shared.u64 %0, %1;" : "=l"(back) : "l"(static_cast<unsigned long long>(smem)));
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  unsigned dst;
  asm volatile("{\n\t.reg .u64 s;\n\tcvta.to.shared.u64 s, %1;\n\tcvt.u32.u64 %0, s;\n\t}" : "=r"(dst) : "l"(&staged[4 * t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(in4 + t + 1) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  asm volatile("barrier.sync 0;" ::: "memory");
  const unsigned other = (t + 5) % 32;
  asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(out + 8 * t), "f"(x + y), "f"(z * w),
               "f"(staged[4 * other]), "f"(staged[4 * other + 3])
               : "memory");
  asm volatile("st.global.u32 [%0], %1;" ::"l"(flags + t),
               "r"(neighbour + (back == reinterpret_cast<unsigned long long>(&tile[t]) ? 1000u : 0u)));
}

// The ISA's pseudocode for shfl.sync (lane j and the in-range predicate).
int shfl_source(int mode, int lane, int b, int c, bool* in_range) {
  const int bval = b & 0x1f, cval = c & 0x1f, mask = (c >> 8) & 0x1f;
  const int max_lane = (lane & mask) | (cval & ~mask), min_lane = lane & mask;
  int j = lane;
  bool p = false;
  if (mode == 0) j = lane - bval, p = j >= max_lane;
  if (mode == 1) j = lane + bval, p = j <= max_lane;
  if (mode == 2) j = lane ^ bval, p = j <= max_lane;
  if (mode == 3) j = min_lane | (bval & ~mask), p = j <= max_lane;
  *in_range = p;
  return p ? j : lane;
}

}  // namespace

TEST_CASE("inline PTX bit manipulation gives the PTX ISA's values", "[inline-ptx]") {
  unsigned* u;
  unsigned long long* w;
  cudaMallocManaged(&u, 64 * sizeof(unsigned));
  cudaMallocManaged(&w, 8 * sizeof(unsigned long long));
  bit_ops<<<1, 1>>>(u, w);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<unsigned> expected = {
      0x8811f2a3u, 0x44c55e96u, 0xa3f21188u, 0xffffffffu, 0xff00ff00u,  // prmt: a, b, reversed, sign, sign of b
      0x968811f2u, 0x5ec544a3u, 0x11111111u, 0x8811f2f2u, 0x1111f2a3u, 0x88118811u,  // f4e b4e rc8 ecl ecr rc16
      0x1e6a2c48u,                                                                   // brev
      0x2au,       0xfffffff8u, 0xfffffffeu, 0x2u,        0x0u,        0xffffffffu,  // bfe
      0x8811f963u, 0x6811f2a3u,                                                      // bfi
      0xffffffffu, 30u,         31u,         32u,         31u,                       // bfind, shiftamt, popc, clz
      0x8811f2a3u & 0x44c55e96u & 0x0ff00ff0u, 0x8811f2a3u ^ 0x44c55e96u ^ 0x0ff00ff0u,
      (0x8811f2a3u & 0x44c55e96u) | (~0x8811f2a3u & 0x0ff00ff0u),                    // lop3: and, xor, select
      428u,                                                                          // setp/selp/add/shl
  };
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("value " << i);
    CHECK(u[i] == expected[i]);
  }
  CHECK(w[0] == 0xf7b3d591e6a2c480ull);
  CHECK(w[1] == 0x0123456789ull);
  CHECK(w[2] == 0xfffffffffff01234ull);
  CHECK(w[3] == 0xd111111111111111ull);
  CHECK(w[4] == 0x5566778811223344ull);
  CHECK(static_cast<long long>(w[5]) == -5);
  cudaFree(u);
  cudaFree(w);
}

TEST_CASE("inline PTX special registers, shfl.sync and vote.sync follow the ISA lane by lane", "[inline-ptx]") {
  Lanes* out;
  cudaMallocManaged(&out, 48 * sizeof(Lanes));
  lanes<<<3, 48>>>(out);  // the last block's lanes overwrite the first's: every block computes the same
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (unsigned t = 0; t < 48; ++t) {
    INFO("thread " << t);
    const Lanes& o = out[t];
    const unsigned lane = t % 32;
    CHECK(o.lane == lane);
    CHECK(o.lt == (1u << lane) - 1u);
    CHECK(o.le == static_cast<unsigned>((2ull << lane) - 1u));
    CHECK(o.eq == 1u << lane);
    CHECK(o.gt == ~o.le);
    CHECK(o.ge == ~o.lt);
    CHECK(o.tid == t);
    CHECK(o.ntid == 48u);
    CHECK(o.warpid_ok == 1u);
    CHECK(o.smid_ok == 1u);
    CHECK(o.active == (t < 32 ? 0xffffffffu : 0x0000ffffu));
    if (t >= 32) continue;
    const auto value = [](int l) { return 1000u + static_cast<unsigned>(l) * 7u; };
    bool p;
    CHECK(o.up == value(shfl_source(0, lane, 3, 0, &p)));
    CHECK(o.down == value(shfl_source(1, lane, 5, 0x1f, &p)));
    CHECK(o.bfly == value(shfl_source(2, lane, 9, 0x1f, &p)));
    CHECK(o.idx == value(shfl_source(3, lane, lane * 5 + 3, 0x1f, &p)));
    CHECK(o.up_seg == value(shfl_source(0, lane, 3, 0x1800, &p)));
    CHECK(o.up_pred == (p ? 1u : 0u));
    CHECK(o.up_pred == (lane % 8 >= 3 ? 1u : 0u));
    CHECK(o.bfly_seg == value(shfl_source(2, lane, 12, 0x181f, &p)));
    CHECK(o.bfly_pred == (p ? 1u : 0u));
    CHECK(o.ballot == 0x49249249u);  // lanes 0, 3, 6, ...: lane % 3 == 0
    CHECK(o.all == 1u);
    CHECK(o.any == 1u);
    CHECK(o.uni == 0u);
  }
  cudaFree(out);
}

TEST_CASE("inline PTX loads, stores, shared addresses and cp.async move the right data", "[inline-ptx]") {
  float4* in4;
  unsigned* in1;
  float* out;
  unsigned* flags;
  cudaMallocManaged(&in4, 33 * sizeof(float4));
  cudaMallocManaged(&in1, 33 * sizeof(unsigned));
  cudaMallocManaged(&out, 8 * 32 * sizeof(float));
  cudaMallocManaged(&flags, 32 * sizeof(unsigned));
  for (int i = 0; i < 33; ++i) {
    in4[i] = make_float4(i * 1.5f, i - 0.25f, i * 2.0f, 3.0f - i);
    in1[i] = 7u * i + 1u;
  }
  memory<<<1, 32>>>(in4, in1, out, flags);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (unsigned t = 0; t < 32; ++t) {
    INFO("thread " << t);
    const float i = static_cast<float>(t);
    CHECK(out[8 * t] == i * 1.5f + (i - 0.25f));
    CHECK(out[8 * t + 1] == (i * 2.0f) * (3.0f - i));
    const unsigned other = (t + 5) % 32;
    CHECK(out[8 * t + 2] == (other + 1) * 1.5f);    // staged by cp.async from in4[other + 1].x
    CHECK(out[8 * t + 3] == 3.0f - (other + 1.0f));  // .w
    CHECK(flags[t] == 7u * ((t ^ 1u) + 1u) + 1u + 1000u);  // the neighbour's in1[t + 1], and cvta's round trip
  }
  cudaFree(in4);
  cudaFree(in1);
  cudaFree(out);
  cudaFree(flags);
}

