// Unit tests of the inline-PTX rewrite: asm statements in function and #define bodies become, on
// the same line, either C++ that runs their instructions (lines after them keep their numbers) or
// a failing static_assert naming the instruction the emulator does not run; asm labels and
// top-level asm, text in comments and strings, and names merely containing "asm" stay as written.
// What the translated instructions compute is checked by tests/emu/test_inline_ptx.cu.
#include "rewrite_test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpulab::rewriter::test;

namespace {
bool refused(const std::string& text) { return text.find("static_assert(false, \"inline PTX") != std::string::npos; }
bool translated(const std::string& text) {
  return text.find("do { ") != std::string::npos && text.find("::gpulab::emu::ptx::") != std::string::npos &&
         !refused(text);
}
}  // namespace

TEST_CASE("a move from %laneid becomes C++ on the same line", "[rewriter][asm]") {
  const std::string src =
      "__global__ void k(unsigned* out) {\n"
      "  unsigned lane;\n"
      "  asm volatile(\"mov.u32 %0, %%laneid;\"\n"
      "               : \"=r\"(lane));\n"
      "  out[0] = lane;\n"
      "}\n";
  const std::string out = rewrite_body(src);
  CHECK(translated(out));
  CHECK(line_of(out, "::gpulab::emu::ptx::laneid()") == 3);
  CHECK(line_of(out, "out[0] = lane;") == 5);
  CHECK(count_newlines(out) == count_newlines(src));
  CHECK(out.find("auto&& gpulab_ptx_o0 = (lane);") != std::string::npos);
  CHECK(out.find("mov.u32") == std::string::npos);
}

TEST_CASE("operands are bound once, inputs before the instructions and outputs written back after", "[rewriter][asm]") {
  const std::string out = rewrite_body(
      "__device__ unsigned f(unsigned a, unsigned b) { unsigned d; "
      "asm(\"prmt.b32 %0, %1, %2, %3;\" : \"=r\"(d) : \"r\"(a + 1), \"r\"(b), \"n\"(0x3210)); return d; }\n");
  REQUIRE(translated(out));
  const auto pos = [&](const char* s) { return out.find(s); };
  CHECK(pos("in<'r'>((a + 1))") < pos("::gpulab::emu::ptx::prmt("));
  CHECK(pos("in<'n'>((0x3210))") < pos("::gpulab::emu::ptx::prmt("));
  CHECK(pos("::gpulab::emu::ptx::prmt(") < pos("::gpulab::emu::ptx::out(gpulab_ptx_o0, gpulab_ptx0)"));
}

TEST_CASE("named operands, %% registers, nvcc's single % and .reg blocks are read", "[rewriter][asm]") {
  CHECK(translated(rewrite_body(
      "__device__ void f(unsigned long long* t) { asm volatile(\"mov.u64 %0, %globaltimer;\" : \"=l\"(*t)); }\n")));
  CHECK(
      translated(rewrite_body("__device__ unsigned f(unsigned x) { unsigned r; asm(\"brev.b32 %[out], %[in];\" "
                              ": [out] \"=r\"(r) : [in] \"r\"(x)); return r; }\n")));
  const std::string ballot = rewrite_body(
      "__device__ unsigned f(int x) { unsigned b; asm(\"{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %1, 0;\\n\\t"
      "vote.sync.ballot.b32 %0, p, 0xffffffff;\\n\\t}\" : \"=r\"(b) : \"r\"(x)); return b; }\n");
  CHECK(translated(ballot));
  CHECK(ballot.find("vote_ballot(") != std::string::npos);
}

TEST_CASE("an instruction the emulator does not run is refused by name", "[rewriter][asm]") {
  const std::string out = rewrite_body(
      "__device__ unsigned f(unsigned a) {\n"
      "  unsigned r; asm(\"vabsdiff2.u32.u32.u32.add %0, %1, %1, 0;\" : \"=r\"(r) : \"r\"(a));\n"
      "  return r;\n"
      "}\n");
  CHECK(refused(out));
  CHECK(line_of(out, "static_assert") == 2);
  CHECK(out.find("'vabsdiff2.u32.u32.u32.add'") != std::string::npos);
  CHECK(refused(rewrite_body("__device__ void f() { asm(\"exit;\"); }\n")));
  CHECK(rewrite_body("__device__ void f() { asm(\"exit;\"); }\n").find("'exit'") != std::string::npos);
  // Modifiers the emulator does not model are named too.
  CHECK(rewrite_body("__device__ void f(int* p) { asm(\"ld.global.v8.f32 {%0}, [%0];\" :: \"l\"(p)); }\n")
            .find("'ld.global.v8.f32'") != std::string::npos);
  CHECK(refused(rewrite_body("__device__ void f() { asm(\"bar.red.popc.u32 %0, 1, 1;\" :: \"r\"(0)); }\n")));
  CHECK(refused(rewrite_body("__device__ void f() { asm(\"bar.arrive 1;\"); }\n")));  // arrive needs a count
  CHECK(
      refused(rewrite_body("__device__ unsigned f(unsigned v) { unsigned r; asm(\"shfl.idx.b32 %0, %1, 0, 0x1f;\" "
                           ": \"=r\"(r) : \"r\"(v)); return r; }\n")));
}

TEST_CASE("asm that cannot be read is refused with the reason", "[rewriter][asm]") {
  const std::string macro_text = rewrite_body(
      "#define INSN \"mov.u32 %0, %%laneid;\"\n"
      "__device__ unsigned f() { unsigned r; asm(INSN : \"=r\"(r)); return r; }\n");
  CHECK(refused(macro_text));
  CHECK(macro_text.find("not a string literal") != std::string::npos);
  const std::string jump = rewrite_body("__device__ void f() { asm goto(\"bra %l0;\" :::: done); done: return; }\n");
  CHECK(refused(jump));
  CHECK(jump.find("asm goto") != std::string::npos);
  CHECK(refused(rewrite_body("__device__ void f(int* p) { asm(\"st.global.u32 [%0], 1;\" :: \"m\"(*p)); }\n")));
  CHECK(refused(rewrite_body("__device__ void f() { asm(\"mov.u32 %0, %%laneid;\"); }\n")));  // %0 does not exist
}

TEST_CASE("asm, __asm__ __volatile__ and asm in a #define body are all rewritten", "[rewriter][asm]") {
  CHECK(translated(rewrite_body("__device__ void f() { __asm__ __volatile__(\"bar.sync 0;\"); }\n")));
  // Named barriers: bar.arrive / barrier.sync.aligned with an id and a count.
  const std::string named = rewrite_body(
      "__device__ void f(unsigned id) { asm volatile(\"bar.arrive %0, 64;\" :: \"r\"(id)); "
      "asm volatile(\"barrier.sync.aligned 2, 128;\"); }\n");
  CHECK(translated(named));
  CHECK(named.find("bar_sync(") != std::string::npos);
  CHECK(named.find("(64ULL)), true, false,") != std::string::npos);  // a count, no wait
  CHECK(translated(rewrite_body("__device__ void f() { asm volatile(\"membar.gl;\" ::: \"memory\"); }\n")));
  const std::string macro = rewrite_body("#define LANE(r) asm(\"mov.u32 %0, %%laneid;\" \\\n : \"=r\"(r))\nint x;\n");
  CHECK(translated(macro));
  CHECK(line_of(macro, "int x;") == 3);
  CHECK(macro.find("\\\n") != std::string::npos);  // the macro keeps its continuation
}

TEST_CASE("asm labels, top-level asm, comments, strings and similar names are untouched", "[rewriter][asm]") {
  const std::string src =
      "int counter asm(\"my_counter\");\n"
      "asm(\".globl marker\");\n"
      "void g() {\n"
      "  // asm(\"nop\");\n"
      "  const char* s = \"asm(x)\";\n"
      "  int asm_count = 0;\n"
      "  my_asm(asm_count);\n"
      "}\n";
  CHECK(rewrite_body(src) == src);
}

TEST_CASE("an asm with an empty template (a compiler barrier) is left alone", "[rewriter][asm]") {
  const std::string src =
      "void host_loop(float* c) {\n"
      "  asm volatile(\"\" ::\"r\"(c) : \"memory\");\n"
      "  __asm__ __volatile__(\"\" ::: \"memory\");\n"
      "}\n";
  CHECK(rewrite_body(src) == src);
  CHECK(refused(rewrite_body("__device__ void f() { asm volatile(\"nop\" ::: \"memory\"); }\n")));
}

TEST_CASE("the host's own assembly outside device code is left to the host compiler", "[rewriter][asm]") {
  // Host functions and macros with x86 or SPARC assembly (Boost's rounding control, as cuda-samples'
  // interval bundles it; a cycle counter): nvcc's host pass hands them to the host compiler.
  const std::string host =
      "static void set_mode(const unsigned short& m) { __asm__ __volatile__(\"fldcw %0\" : : \"m\"(m)); }\n"
      "static void get_mode(unsigned& m) { __asm__ __volatile__(\"st %%fsr, %0\" : \"=m\"(m)); }\n"
      "void nothing() { asm volatile(\"nop\"); }\n"
      "#define RDTSC(lo, hi) asm volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi))\n"
      "struct S { void wait() { asm(\"pause\"); } };\n"
      "__host__ void h() { asm(\"cpuid\" ::: \"eax\", \"ebx\", \"ecx\", \"edx\"); }\n";
  CHECK(rewrite_body(host) == host);
  // PTX outside a visibly device body (qualifiers from a macro, a #define) is still PTX.
  CHECK(translated(rewrite_body(
      "#define HD __host__ __device__\nHD unsigned lane() { unsigned r; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); "
      "return r; }\n")));
  CHECK(translated(rewrite_body("void f() { asm volatile(\"membar.gl;\"); }\n")));
  CHECK(translated(rewrite_body("#define FENCE() asm volatile(\"{ membar.cta; }\")\nint x;\n")));
  // In a kernel, a device function or a device lambda, every asm is PTX: another assembly's text is
  // refused by name, never handed to the host's assembler.
  const std::string sparc = rewrite_body("__device__ void f(unsigned* m) { asm(\"st %%fsr, %0\" : \"=m\"(*m)); }\n");
  CHECK(refused(sparc));
  const std::string untyped = rewrite_body("__device__ void f(int* p) { asm(\"st %%fsr, [%0];\" :: \"l\"(p)); }\n");
  CHECK(refused(untyped));
  CHECK(untyped.find("uses the type .st") != std::string::npos);  // a message, not an exception
  CHECK(refused(rewrite_body("template <int N> __global__ void k() { if (N) { asm(\"pause\"); } }\n")));
  CHECK(refused(rewrite_body("void f() { auto l = [] __device__ () { asm(\"rdtsc\"); }; }\n")));
}
