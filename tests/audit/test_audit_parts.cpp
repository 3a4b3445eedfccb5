// The audit's parts on their own: symbol keys and patterns, the source's asm statements and line
// markers, the ELF reader's refusals, the allowlist's refusals and the protected symbols' cache.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "audit/allowed_calls.hpp"
#include "audit/elf_object.hpp"
#include "audit/protected_symbols.hpp"
#include "audit/source_lines.hpp"
#include "audit/source_scan.hpp"
#include "audit/symbol_names.hpp"
#include "audit_test_support.hpp"
#include "files/grader_error.hpp"
#include "files/temp_folder.hpp"
#include "toolchain/audit_inputs.hpp"
#include "toolchain/toolchain.hpp"

using namespace gpulab::audit;
namespace fs = std::filesystem;

TEST_CASE("symbol keys: qualified names without return type, parameters, template arguments and tags") {
  CHECK(symbol_key(demangled("mprotect")) == "mprotect");
  CHECK(symbol_key(demangled("_Z10cudaMallocPPvmPKci")) == "cudaMalloc");
  CHECK(symbol_key(
            "std::basic_ofstream<char, std::char_traits<char> >::basic_ofstream(char const*, std::_Ios_Openmode)") ==
        "std::basic_ofstream::basic_ofstream");
  CHECK(symbol_key("void std::sort<int*>(int*, int*)") == "std::sort");
  CHECK(symbol_key("std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >("
                   "std::basic_ostream<char, std::char_traits<char> >&, char const*)") == "std::operator<<");
  CHECK(symbol_key("operator new(unsigned long)") == "operator new");
  CHECK(symbol_key("vtable for std::basic_ofstream<char, std::char_traits<char> >") == "std::basic_ofstream");
  CHECK(symbol_key("gpulab::emu::BlockRunner::block_label[abi:cxx11]() const") ==
        "gpulab::emu::BlockRunner::block_label");
  CHECK(symbol_key("(anonymous namespace)::counter") == "(anonymous namespace)::counter");
  CHECK(symbol_key("std::thread::_M_start_thread(std::unique_ptr<std::thread::_State, "
                   "std::default_delete<std::thread::_State> >, void (*)())") == "std::thread::_M_start_thread");
  CHECK(unversioned("memcpy@@GLIBC_2.14") == "memcpy");
}

TEST_CASE("patterns: '*' spans names and scopes, a class matches one character") {
  CHECK(glob_match("std::*", "std::vector::push_back"));
  CHECK(glob_match("cu[A-Z]*", "cuInit"));
  CHECK_FALSE(glob_match("cu[A-Z]*", "cudaMalloc"));
  CHECK(glob_match("pkey_*", "pkey_mprotect"));
  CHECK_FALSE(glob_match("mmap", "mmap64"));
  CHECK(glob_match("*", ""));
  CHECK(glob_match("operator new[]", "operator new[]"));  // "[]" is literal
  CHECK_FALSE(glob_match("operator new[]", "operator new"));
}

TEST_CASE("asm statements: non-empty templates, not labels, not empty barriers") {
  const auto found = asm_statements(
      "int f() asm(\"renamed\");\n"                        // a label: not a statement
      "void g() { asm volatile(\"\" ::: \"memory\"); }\n"  // empty: a compiler barrier
      "void h() { asm volatile(\"rdtsc\" : \"=a\"(x)); }\n"
      "register int r asm(\"rax\");\n"
      "void k() { if (x) __asm__ __volatile__(\"nop\\n\\t\" \"pause\"); }\n"
      "asm(R\"(.globl x)\");\n"
      "// asm(\"in a comment\");\n"
      "#if defined(__x86_64__)\n"  // a directive's ')' before an asm is not a declarator's
      "asm(\"nop\");\n"
      "#endif\n"
      "#define LANE(r) asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(r))\n"
      "#define SPIN asm volatile(\"pause\")\n");
  REQUIRE(found.size() == 6);
  CHECK(found[0].line == 3);
  CHECK(found[0].text == "rdtsc");
  CHECK(found[1].line == 5);
  CHECK(found[2].text == ".globl x");
  CHECK(found[3].line == 9);
  CHECK(found[4].text == "mov.u32 %0, %%laneid;");
  CHECK(found[5].text == "pause");
}

TEST_CASE("line markers: #line and the preprocessor's markers, system headers told apart") {
  const LineMarkers m("#line 1 \"/a/orig.cu\"\nx\ny\n# 7 \"/usr/include/stdio.h\" 3\nz\n", "/build/rewritten.cpp");
  CHECK(m.first_file() == "/a/orig.cu");
  CHECK(m.origin(3).file == "/a/orig.cu");
  CHECK(m.origin(3).line == 2);
  CHECK(m.origin(5).system);
  CHECK(m.origin(5).line == 7);
}

TEST_CASE("the ELF reader refuses what is not a relocatable object, as the installation's problem") {
  gpulab::files::TempFolder folder("audit-test");
  std::ofstream(folder / "not.o") << "not an object";
  CHECK_THROWS_AS(read_elf_object(folder / "not.o"), gpulab::files::GraderError);
  CHECK_THROWS_WITH(read_elf_object(folder / "missing.o"), Catch::Contains("cannot open the object"));
}

TEST_CASE("a malformed allowlist is refused with the entry named") {
  gpulab::files::TempFolder folder("audit-test");
  std::ofstream(folder / "kind.json") << R"({"deny": [{"names": ["x"], "kind": "nonsense", "does": "y"}]})";
  CHECK_THROWS_WITH(allowed_calls(folder / "kind.json"), Catch::Contains("deny[0].kind"));
  std::ofstream(folder / "does.json") << R"({"deny": [{"names": ["x"]}]})";
  CHECK_THROWS_WITH(allowed_calls(folder / "does.json"), Catch::Contains("says what the call does"));
  std::ofstream(folder / "field.json") << R"({"allow": [{"names": ["x"], "why": "w", "backend": ["emu"]}]})";
  CHECK_THROWS_WITH(allowed_calls(folder / "field.json"), Catch::Contains("unknown field 'backend'"));
  CHECK_NOTHROW(allowed_calls());  // the shipped one
}

TEST_CASE("the shipped allowlist: AArch64's outline atomics are allowed, what maps memory is not") {
  // g++ on AArch64 calls libgcc's helpers for every atomic (the emulator's atomicAdd included):
  // a histogram reference audited on an arm64 machine must not be a finding.
  const AllowedCalls& calls = allowed_calls();
  const auto nowhere = [](const std::string&) { return false; };
  for (const char* name : {"__aarch64_ldadd4_acq_rel", "__aarch64_ldadd4_relax", "__aarch64_cas8_acq_rel",
                           "__aarch64_swp4_relax", "__aarch64_ldset1_acq", "__aarch64_have_lse_atomics"}) {
    INFO(name);
    CHECK(calls.allowed(name, gpulab::toolchain::Backend::emu, nowhere));
    CHECK(calls.denied(name, gpulab::toolchain::Backend::emu) == nullptr);
  }
  CHECK_FALSE(calls.allowed("__aarch64_sync_cache_range", gpulab::toolchain::Backend::emu, nowhere));
  CHECK(calls.denied("mprotect", gpulab::toolchain::Backend::cuda) != nullptr);
}

TEST_CASE("the protected symbols are cached on disk, keyed by the libraries") {
  gpulab::files::TempFolder cache("audit-test");
  setenv("GPULAB_CACHE", cache.path().c_str(), 1);
  const auto symbols = protected_symbols(gpulab::toolchain::Backend::emu);
  unsetenv("GPULAB_CACHE");
  CHECK(symbols->defined_in("mprotect", "libc"));
  CHECK(symbols->defined_in("_Z20cudaEventElapsedTimePfP10CUevent_stS1_", "emulator"));
  CHECK(symbols->defined_in("sqrtf", "libm"));
  // One file of symbols, one of the system libraries' paths: a second audit starts no process.
  size_t symbol_files = 0, library_files = 0;
  for (const auto& e : fs::directory_iterator(cache.path() / "audit")) {
    const std::string name = e.path().filename().string();
    symbol_files += name.rfind("protected-", 0) == 0;
    library_files += name.rfind("system-libraries-", 0) == 0;
  }
  CHECK(symbol_files == 1);
  CHECK(library_files == 1);
}

// Wherever the cuda backend is built, the runtime it links is where the build says, and its timer
// is protected: a toolkit guessed from a wrapper's folder (/usr/local/bin/nvcc) once left the
// runtime's names out of the table (cmake/cuda_toolkit.cmake now asks nvcc).
TEST_CASE("the cuda backend's static runtime is found and its timer protected wherever the backend is built") {
  if (!gpulab::toolchain::cuda_backend_available()) {
    WARN("no cuda backend in this build: nothing to check");
    return;
  }
  const std::string runtime = gpulab::toolchain::cuda_static_runtime();
  INFO("nvcc " << gpulab::toolchain::nvcc_path() << ", libraries in " << gpulab::toolchain::cuda_library_dir());
  REQUIRE(!runtime.empty());
  gpulab::files::TempFolder cache("audit-test");
  setenv("GPULAB_CACHE", cache.path().c_str(), 1);
  const auto symbols = protected_symbols(gpulab::toolchain::Backend::cuda);
  unsetenv("GPULAB_CACHE");
  CHECK(symbols->defined_in("cudaEventElapsedTime", "cudart"));
  CHECK(symbols->defined_in("clock_gettime", "libc"));
}

TEST_CASE(
    "a protected-symbols file cut short, without the runtime's timer or of other libraries, is read again, never "
    "trusted") {
  // Made once in one cache, then copied, damaged, into others: the key names the libraries, not
  // the folder, so each copy is what a later audit of the same libraries would read.
  gpulab::files::TempFolder made("audit-test");
  setenv("GPULAB_CACHE", made.path().c_str(), 1);
  protected_symbols(gpulab::toolchain::Backend::emu);
  fs::path file;
  for (const auto& e : fs::directory_iterator(made.path() / "audit")) {
    if (e.path().filename().string().rfind("protected-", 0) == 0) file = e.path();
  }
  REQUIRE(!file.empty());
  std::string text;
  {
    std::ifstream in(file, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  REQUIRE(text.find("\nE\t") != std::string::npos);
  // Every line but the timer's, its last line counting what is left: whole, by its own count.
  std::string without_timer;
  std::set<std::string> names;
  size_t libraries = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("cudaEventElapsedTime") != std::string::npos || line.rfind("E\t", 0) == 0) continue;
    without_timer += line + "\n";
    libraries += line.rfind("L\t", 0) == 0;
    if (line.rfind("S\t", 0) == 0) names.insert(line.substr(line.rfind('\t') + 1));
  }
  without_timer += "E\t" + std::to_string(libraries) + "\t" + std::to_string(names.size()) + "\n";
  REQUIRE(without_timer.size() < text.size());
  // Whole and with every name, but of other libraries: the harness's line names another file (a
  // table written for another set of libraries, or edited, is not this one's).
  std::string other_libraries = text;
  const size_t harness = other_libraries.find("\nL\tharness\t");
  REQUIRE(harness != std::string::npos);
  const size_t path = other_libraries.find('\t', harness + 11) + 1;
  other_libraries.insert(path, "/elsewhere");
  for (const std::string& damaged : {text.substr(0, text.size() / 2), without_timer, other_libraries}) {
    gpulab::files::TempFolder cache("audit-test");
    fs::create_directories(cache.path() / "audit");
    std::ofstream(cache.path() / "audit" / file.filename(), std::ios::binary) << damaged;
    setenv("GPULAB_CACHE", cache.path().c_str(), 1);
    const auto symbols = protected_symbols(gpulab::toolchain::Backend::emu);
    CHECK(symbols->defined_in("_Z20cudaEventElapsedTimePfP10CUevent_stS1_", "emulator"));
    CHECK(symbols->defined_in("clock_gettime", "libc"));
    std::ifstream in(cache.path() / "audit" / file.filename(), std::ios::binary);
    const std::string rewritten((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(rewritten == text);  // read again with nm and written whole
  }
  unsetenv("GPULAB_CACHE");
}
