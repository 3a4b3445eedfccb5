// Each route of the audit flagged with its kind and its sentence: the submissions of
// tests/audit/routes/, compiled to objects on the emulator and, where nvcc is present, for a GPU
// (compile only), then audited.
#include <catch2/catch.hpp>

#include <iostream>

#include "audit_test_support.hpp"

using gpulab::audit::FindingKind;
using gpulab::toolchain::Backend;
using namespace gpulab_test;

namespace {
std::filesystem::path route(const char* name) { return source_dir() / "tests" / "audit" / "routes" / name; }

std::string runtime(Backend b) { return b == Backend::emu ? "the emulator's runtime" : "the CUDA runtime"; }

Audited audited(const char* name, Backend b) {
  Audited a = audit_file(route(name), b);
  INFO(describe(a));
  REQUIRE(a.compiled);
  return a;
}
}  // namespace

TEST_CASE("interposition: the runtime's timer, libc's clock and the harness's counter, defined again") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("interposition.cu", b);
    INFO(describe(a));
    const bool timer = has_finding(a.result, FindingKind::interposition, "cudaEventElapsedTime",
                                   "defines cudaEventElapsedTime, a name " + runtime(b) + " already defines");
    if (!timer) std::cout << symbols_named(a, "cudaEventElapsedTime") << "\n";  // before the failure's (cut) message
    CHECK(timer);
    CHECK(has_finding(a.result, FindingKind::interposition, "clock_gettime",
                      "defines clock_gettime, a name the C library already defines"));
    CHECK(has_finding(a.result, FindingKind::interposition, "gpulab::harness::kernel_launches_so_far",
                      "a name the grader's harness already defines"));
    // The debug info names the definition's first line (the emulator's objects have a line table).
    if (b == Backend::emu) {
      for (const auto& f : a.result.findings) {
        if (f.symbol.find("cudaEventElapsedTime") != std::string::npos) CHECK(f.where == "interposition.cu:10");
      }
    }
  }
}

TEST_CASE("forbidden calls: memory protection, symbol lookup, fork and ptrace, signals, files, environment") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("forbidden_call.cu", b);
    INFO(describe(a));
    CHECK(has_finding(a.result, FindingKind::forbidden_call, "mprotect",
                      "calls mprotect, which changes memory protection or maps memory; a graded function has no use "
                      "for it"));
    CHECK(has_finding(a.result, FindingKind::forbidden_call, "dlsym", "calls dlsym, which looks up symbols"));
    CHECK(has_finding(a.result, FindingKind::forbidden_call, "fork", "calls fork, which starts or controls processes"));
    CHECK(has_finding(a.result, FindingKind::forbidden_call, "ptrace", "calls ptrace"));
    CHECK(
        has_finding(a.result, FindingKind::forbidden_call, "signal", "calls signal, which handles or blocks signals"));
    CHECK(
        has_finding(a.result, FindingKind::forbidden_call, "fopen", "calls fopen, which opens files or works on file"));
    CHECK(has_finding(a.result, FindingKind::forbidden_call, "basic_ofstream", "which opens files or works on file"));
    CHECK(
        has_finding(a.result, FindingKind::forbidden_call, "cudaGetExportTable", "which looks up symbols at run time"));
    CHECK(has_finding(a.result, FindingKind::forbidden_call, "_GLOBAL_OFFSET_TABLE_",
                      "uses _GLOBAL_OFFSET_TABLE_, which points into the program's own tables"));
    CHECK(has_finding(a.result, FindingKind::forbidden_call, "setenv", "calls setenv, which changes the environment"));
    CHECK(has_finding(a.result, FindingKind::forbidden_call, "getppid",
                      "calls getppid, which is not among what a graded function may use"));
    if (b == Backend::cuda) {
      CHECK(has_finding(a.result, FindingKind::forbidden_call, "cuInit",
                        "calls cuInit, which calls the CUDA driver API"));
    } else {
      CHECK(has_finding(a.result, FindingKind::forbidden_call, "cuInit", "which is not among what a graded function"));
      // The emulator's objects carry line tables: the call's line in the student's file.
      bool located = false;
      for (const auto& f : a.result.findings)
        located = located || (f.symbol == "mprotect" && f.where == "forbidden_call.cu:21");
      CHECK(located);
    }
    CHECK_FALSE(has_finding(a.result, FindingKind::forbidden_call, "printf"));
  }
}

TEST_CASE("harness references: the launch counter and the real launch behind its wrapper") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("harness_reference.cu", b);
    INFO(describe(a));
    CHECK(has_finding(a.result, FindingKind::harness_reference, "gpulab::harness::kernel_launches_so_far",
                      "refers to gpulab::harness::kernel_launches_so_far, part of the grader's harness"));
    CHECK(has_finding(a.result, FindingKind::harness_reference, "__real_cudaLaunchKernel",
                      "part of the grader's harness"));
  }
}

TEST_CASE("harness references: the emulator's findings, launch count and fault recovery") {
  const Audited a = audited("emulator_internals.cu", Backend::emu);
  INFO(describe(a));
  CHECK(has_finding(a.result, FindingKind::harness_reference, "take_diagnostics",
                    "calls gpulab::emu::take_diagnostics, which counts launches or reads the emulator's findings"));
  CHECK(has_finding(a.result, FindingKind::harness_reference, "launch_count", "gpulab::emu::launch_count"));
  CHECK(has_finding(a.result, FindingKind::harness_reference, "set_recovery_armed",
                    "which writes, clears or turns off the emulator's checks and reports"));
}

TEST_CASE("raw system calls: syscall() and system-call, interrupt, far and protection-key instructions") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("raw_system_call.cu", b);
    INFO(describe(a));
    CHECK(has_finding(a.result, FindingKind::raw_system_call, "syscall",
                      "calls syscall, which makes a system call without the C library"));
#if defined(__x86_64__)
    CHECK(has_finding(a.result, FindingKind::raw_system_call, "syscall", "contains the instruction `syscall`"));
    CHECK(has_finding(a.result, FindingKind::raw_system_call, "int", "contains the instruction `int $0x80`"));
    CHECK(has_finding(a.result, FindingKind::raw_system_call, "sysenter", "`sysenter`"));
    CHECK(has_finding(a.result, FindingKind::raw_system_call, "wrpkru", "changes the memory protection keys"));
    CHECK(has_finding(a.result, FindingKind::raw_system_call, "lret", "a far call, jump or return"));
#elif defined(__aarch64__)
    CHECK(has_finding(a.result, FindingKind::raw_system_call, "svc", "contains the instruction `svc"));
#endif
    CHECK(has_finding(a.result, FindingKind::inline_assembly, "syscall", "has inline assembly in host code"));
  }
}

TEST_CASE("inline assembly: namespace-scope assembly is flagged, an empty template is not") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("inline_assembly.cu", b);
    INFO(describe(a));
    CHECK(has_finding(a.result, FindingKind::inline_assembly, "audit_route_tsc", "has inline assembly in host code"));
    size_t count = 0;
    for (const auto& f : a.result.findings) count += f.kind == FindingKind::inline_assembly;
    CHECK(count == 1);
    for (const auto& f : a.result.findings) {
      if (f.kind == FindingKind::inline_assembly) CHECK(f.where == "inline_assembly.cu:5");
    }
  }
}

TEST_CASE("inline assembly: a host function's asm, told apart from inline PTX in device code") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("inline_assembly_host_function.cu", b);
    INFO(describe(a));
    size_t count = 0;
    for (const auto& f : a.result.findings) {
      if (f.kind != FindingKind::inline_assembly) continue;
      ++count;
#if defined(__x86_64__)
      CHECK(f.where == "inline_assembly_host_function.cu:29");
#else
      CHECK(f.where == "inline_assembly_host_function.cu:33");
#endif
    }
    CHECK(count == 1);
  }
}

TEST_CASE("early code: constructors, a priority, a destructor, preinit, IFUNC, start-up hooks, a forged name") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("early_constructor.cu", b);
    INFO(describe(a));
    CHECK(has_finding(a.result, FindingKind::early_constructor, "early", "runs early before main (a constructor"));
    CHECK(has_finding(a.result, FindingKind::early_constructor, "earlier",
                      "runs earlier before main (a constructor with a priority, section .init_array.00101)"));
    CHECK(has_finding(a.result, FindingKind::early_constructor, "late", "runs late after main (a destructor"));
    CHECK(has_finding(a.result, FindingKind::early_constructor, "preinit", "runs preinit before the program starts"));
    CHECK(has_finding(a.result, FindingKind::early_constructor, "resolved_answer", "as an IFUNC"));
    CHECK(has_finding(a.result, FindingKind::early_constructor, "__gmon_start__",
                      "defines __gmon_start__, which the program's start-up code or a library calls by itself"));
    CHECK(has_finding(a.result, FindingKind::early_constructor, "_ITM_registerTMCloneTable", "calls by itself"));
    CHECK(has_finding(a.result, FindingKind::early_constructor, "_GLOBAL__sub_I_forged",
                      "a name reserved for the compiler's own start-up code"));
    // The compiler's own initialiser (the global std::vector's) and nvcc's registration are not findings.
    for (const auto& f : a.result.findings) {
      if (f.sentence.find("runs _GLOBAL__sub_I_") != std::string::npos) CHECK(f.symbol == "_GLOBAL__sub_I_forged");
      CHECK(f.sentence.find("__sti__") == std::string::npos);
    }
  }
}

TEST_CASE("names the allowlist trusts, forged, a weak copy of what libstdc++ defines strongly") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("forged_library_code.cu", b);
    INFO(describe(a));
    CHECK(has_finding(a.result, FindingKind::other, "nvtxForged_impl_init_v3",
                      "a name of a library's own code that the audit trusts by its name"));
    CHECK(has_finding(a.result, FindingKind::other, "nvtxLabelled_impl_init_v3", "a name of a library's own code"));
    CHECK(has_finding(a.result, FindingKind::interposition, "steady_clock::now",
                      "a name the C++ library already defines"));
    if (b == Backend::emu) CHECK(has_finding(a.result, FindingKind::forbidden_call, "dlsym", "calls dlsym"));
  }
}

TEST_CASE("an executable stack and writable code") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("executable_stack.cu", b);
    INFO(describe(a));
    CHECK(has_finding(a.result, FindingKind::executable_stack, ".note.GNU-stack", "asks for an executable stack"));
    CHECK(has_finding(a.result, FindingKind::other, ".audit_route_wx", "writable and executable"));
  }
}

TEST_CASE("host-visible memory: managed, page-locked, mapped and registered memory, and __managed__ variables") {
  for (const Backend b : audit_backends()) {
    const Audited a = audited("host_visible_memory.cu", b);
    INFO(describe(a));
    // (With nvcc, cudaMallocHost of a typed pointer is cuda_runtime.h's inline template: it calls
    // cudaHostAlloc, which is what the object names.)
    for (const char* name :
         {"cudaMallocManaged", "cudaMallocHost", "cudaHostAlloc", "cudaHostRegister", "cudaHostGetDevicePointer"}) {
      if (b == Backend::cuda && std::string(name) == "cudaMallocHost") continue;
      CHECK(has_finding(a.result, FindingKind::host_visible_memory, name,
                        std::string("calls ") + name +
                            ", which makes memory that kernels write and the host reads "
                            "without a copy"));
    }
    // __managed__: nvcc registers it with the runtime; the emulator puts it in a section of its own.
    CHECK(has_finding(a.result, FindingKind::host_visible_memory,
                      b == Backend::cuda ? "__cudaRegisterManagedVar" : "__managed__", "without a copy"));
    if (b == Backend::cuda) {
      CHECK(has_finding(a.result, FindingKind::forbidden_call, "cudaGraphConditionalHandleCreate",
                        "makes conditional graph nodes"));
    }
  }
}
