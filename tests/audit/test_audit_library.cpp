// Library algorithms that compute a lab's answer (lab.json's "library_algorithms"): one submission
// per lab and library family in tests/audit/library_algorithms/ (a CUB one-liner, a Thrust
// one-liner, CUB's dispatch class called directly, a call hidden behind an alias, a typedef, a
// macro or a wrapper, cuBLAS and cuBLASLt, CUTLASS, cuDNN, NPP, cuFFT), each flagged with kind
// library_algorithm, its name and the lab's sentence, for a GPU where nvcc is present (compile
// only) and, where the file compiles there, on the emulator; the emulator's compile of the others
// names the library it lacks. Each lab's library baseline (reference/<lab>/baseline.cu) is flagged
// too; the false-alarm guard is test_audit_corpus.cpp.
#include <catch2/catch.hpp>

#include <algorithm>

#include "audit/library_algorithms.hpp"
#include "audit_test_support.hpp"

using gpulab::audit::FindingKind;
using gpulab::toolchain::Backend;
using namespace gpulab_test;
namespace fs = std::filesystem;

namespace {
fs::path exploit(const std::string& name) { return source_dir() / "tests" / "audit" / "library_algorithms" / name; }

std::string lab_of(const std::string& file) { return file.substr(0, file.find('_')); }

// What the finding must say: its symbol holds `symbol`, its sentence `sentence`.
struct Expected {
  const char* file;
  const char* symbol;
  const char* sentence;
};

// Every sentence ends with what happens to the points.
const std::string kHeld = ". Your points are held for the instructor's review";

const Expected kExpected[] = {
    {"reduction_cub.cu", "cub::DeviceReduce::Sum",
     "calls cub::DeviceReduce::Sum, CUB's whole device-wide reduction (Thrust's reduce, transform_reduce, count, "
     "count_if, inner_product and reduce_by_key run it too): this lab asks you to write the reduction kernel "
     "yourself; block- and warp-level CUB (cub::BlockReduce, cub::WarpReduce) inside your own kernel is fine. Your "
     "points are held for the instructor's review"},
    {"reduction_cub.cu", "cub::DeviceSegmentedReduce::Sum",
     "calls cub::DeviceSegmentedReduce::Sum, CUB's device-wide segmented reduction"},
    {"reduction_thrust.cu", "cub::DeviceReduce::", "CUB's whole device-wide reduction (Thrust's reduce"},
    {"reduction_thrust_other.cu", "cub::detail::scan::DeviceScan", "whose last element is the sum"},
    {"reduction_thrust_other.cu", "DeviceReduce", "CUB's whole device-wide reduction"},
    {"reduction_cub_dispatch.cu", "cub::detail::reduce::DeviceReduce", "launches cub::detail::reduce::DeviceReduce"},
    {"reduction_hidden.cu", "cub::DeviceReduce::Sum",
     "calls cub::DeviceReduce::Sum, CUB's whole device-wide reduction"},
    {"scan_cub.cu", "cub::DeviceScan::",
     "CUB's whole device-wide scan (Thrust's inclusive_scan, exclusive_scan, their transform_ and _by_key forms run "
     "it too): this lab asks you to write the scan kernels yourself; block- and warp-level CUB (cub::BlockScan, "
     "cub::WarpScan) inside your own kernel is fine"},
    {"scan_thrust.cu", "scan", "CUB's whole device-wide scan"},
    {"scan_cub_dispatch.cu", "cub::detail::scan::DeviceScan", "launches cub::detail::scan::DeviceScan"},
    {"scan_hidden.cu", "cub::DeviceScan::", "calls cub::DeviceScan::"},
    {"histogram_cub.cu", "cub::DeviceHistogram::",
     "CUB's whole device-wide histogram: this lab asks you to write the "
     "histogram kernels yourself"},
    {"histogram_cub.cu", "cub::DeviceRunLengthEncode::Encode", "a count of each run of equal values"},
    {"histogram_cub.cu", "cub::DeviceRadixSort::SortKeys", "a device-wide sort"},
    {"histogram_thrust.cu", "cub::DeviceRadixSort::", "a device-wide sort (CUB's radix and merge sorts, Thrust's sort"},
    {"histogram_thrust.cu", "binary_search", "Thrust's binary search over a range"},
    {"histogram_thrust.cu", "cub::DeviceReduce::", "a device-wide count or reduction"},
    {"histogram_cub_dispatch.cu", "Histogram", "CUB's whole device-wide histogram"},
    {"histogram_hidden.cu", "reduce_by_key", "a count of each run of equal values"},
    {"histogram_hidden.cu", "Sort", "a device-wide sort"},
    {"matmul_cublas.cu", "cublasSgemm",
     "calls cublasSgemm_v2, cuBLAS's matrix multiply (GEMM): this lab asks you to write the matrix-multiply kernel "
     "yourself"},
    {"matmul_cublaslt.cu", "cublasLtMatmul", "calls cublasLtMatmul, cuBLASLt's matrix multiply"},
    {"matmul_cutlass.cu", "cutlass::", "a CUTLASS GEMM"},
    {"matmul_hidden.cu", "cublasSgemm_v2", "cublasSgemm_v2, cuBLAS's matrix multiply (GEMM)"},
    {"convolution_cudnn.cu", "cudnnConvolutionForward",
     "calls cudnnConvolutionForward, cuDNN's convolution: this lab asks you to write the convolution kernels "
     "yourself"},
    {"convolution_npp.cu", "nppiFilterBorder_32f_C1R", "an NPP filter (a convolution with a mask)"},
    {"convolution_cufft.cu", "cufftExec", "cuFFT's Fourier transforms (an FFT-based convolution)"},
    {"convolution_hidden.cu", "nppiFilter_32f_C1R", "calls nppiFilter_32f_C1R, an NPP filter"},
};

// The files the emulator compiles: those that declare the library's functions by hand (or define
// CUTLASS's names), or include a library header only where the compiler has it.
bool emulator_compiles(const std::string& file) {
  return file.rfind("matmul_", 0) == 0 || file.rfind("convolution_", 0) == 0;
}

// Each finding of a library file is the library's (no forbidden_call for cublasSgemm as well), and
// names where the program's own code reaches it.
void check_only_library_findings(const Audited& a) {
  for (const auto& f : a.result.findings) {
    INFO(f.symbol << ": " << f.sentence);
    CHECK(f.kind == FindingKind::library_algorithm);
    CHECK(f.sentence.size() > kHeld.size());
    CHECK(f.sentence.compare(f.sentence.size() - kHeld.size(), kHeld.size(), kHeld) == 0);
    if (a.backend == Backend::emu) {
      CHECK(f.where.rfind(a.file.filename().string() + ":", 0) == 0);
    } else {
      // nvcc's host code has no line table: the student's function, never nvcc's own.
      CHECK(f.where.rfind("in function ", 0) == 0);
      CHECK(f.where.find("__nv") == std::string::npos);
      CHECK(f.where.find("__device_stub") == std::string::npos);
    }
  }
}

void check_exploits(Backend backend) {
  std::vector<std::string> files;
  for (const Expected& e : kExpected) {
    if (files.empty() || files.back() != e.file) files.push_back(e.file);
  }
  std::vector<fs::path> paths;
  std::vector<gpulab::audit::LibraryRules> rules;
  for (const std::string& f : files) {
    if (backend == Backend::emu && !emulator_compiles(f)) continue;
    paths.push_back(exploit(f));
    rules.push_back(lab_library_rules(lab_of(f)));
  }
  const std::vector<Audited> audited = audit_files(paths, backend, rules);
  for (const Audited& a : audited) {
    INFO(describe(a));
    REQUIRE(a.compiled);
    size_t expected = 0;
    for (const Expected& e : kExpected) {
      if (a.file.filename() != e.file) continue;
      ++expected;
      INFO("expected: [library_algorithm] " << e.symbol << ": " << e.sentence);
      CHECK(has_finding(a.result, FindingKind::library_algorithm, e.symbol, e.sentence));
    }
    // One finding per algorithm of the lab the file uses: nothing twice.
    CHECK(a.result.findings.size() == expected);
    check_only_library_findings(a);
  }
}
}  // namespace

TEST_CASE("library algorithms: every lab's rules are read from lab.json") {
  for (const char* lab : {"reduction", "scan", "histogram", "matmul", "convolution"}) {
    const gpulab::audit::LibraryRules rules = lab_library_rules(lab);
    INFO(lab);
    CHECK(rules.task.find("yourself") != std::string::npos);
    CHECK_FALSE(rules.allowed.empty());
    CHECK_FALSE(rules.algorithms.empty());
  }
}

TEST_CASE("library algorithms: names as the audit compares them") {
  using gpulab::audit::mentioned_names;
  const auto has = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  // Versioned inline namespaces go; template arguments are names of their own.
  const auto names = mentioned_names(
      "cudaError cub::CUB_300001_SM_900::DeviceReduce::Sum<int const*, int*, int>(void*, unsigned long&, int const*, "
      "int*, int, CUstream_st*)");
  CHECK(has(names, "cub::DeviceReduce::Sum"));
  CHECK_FALSE(has(names, "cub::CUB_300001_SM_900::DeviceReduce::Sum"));
  const auto nested = mentioned_names(
      "void cub::CUB_300001_SM_800_900::detail::for_each::static_kernel<cub::CUB_300001_SM_800_900::detail::for_each::"
      "policy_hub_t::policy_500_t, long, cub::CUB_300001_SM_800_900::detail::for_each::op_wrapper_t<long, "
      "thrust::THRUST_300001_SM_900_NS::system::detail::generic::detail::binary_search_functor<int const*, "
      "thrust::THRUST_300001_SM_900_NS::system::detail::generic::detail::ubf> > >(long, cuda::std::__4::plus<void>)");
  CHECK(has(nested, "cub::detail::for_each::static_kernel"));
  CHECK(has(nested, "thrust::system::detail::generic::detail::binary_search_functor"));
  CHECK(has(nested, "cuda::std::plus"));
  // A class template's member: the class's name goes on after its arguments.
  CHECK(has(mentioned_names("cub::DispatchReduce<int const*, int*, int, cuda::std::__4::plus<void>, int>::Dispatch("
                            "void*, unsigned long&)"),
            "cub::DispatchReduce::Dispatch"));
  // An operator's own characters are not brackets.
  CHECK(has(mentioned_names("bool thrust::operator< <int>(thrust::device_ptr<int>, thrust::device_ptr<int>)"),
            "thrust::device_ptr"));
  // An nvcc stub names the kernel it launches.
  CHECK(has(mentioned_names("__device_stub__ZN3cub17CUB_300001_SM_9006detail11EmptyKernelIvEEvv()"),
            "cub::detail::EmptyKernel"));
  // A library wrapped in a namespace of the program's own still matches.
  CHECK(gpulab::audit::library_pattern_matches("cub::DeviceReduce::*", "mine::cub::DeviceReduce::Sum"));
  CHECK_FALSE(gpulab::audit::library_pattern_matches("cub::DeviceReduce::*", "thrust::cuda_cub::DeviceReduce"));
  CHECK_FALSE(gpulab::audit::library_pattern_matches("cub::DeviceReduce::*", "cub::BlockReduce::Sum"));
}

TEST_CASE("library algorithms: each lab's exploits are flagged with their sentence (cuda, compile only)") {
  if (!gpulab::toolchain::cuda_backend_available()) {
    WARN("no nvcc here: the cuda backend is not audited");
    return;
  }
  check_exploits(Backend::cuda);
}

TEST_CASE("library algorithms: the exploits the emulator compiles are flagged there too") {
  check_exploits(Backend::emu);
}

TEST_CASE("library algorithms: the emulator names the library it lacks, and the audit has nothing to read") {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"reduction_cub.cu", "cub/cub.cuh is the CUDA toolkit's header for CUB, which the emulator does not provide"},
      {"reduction_thrust.cu", "for Thrust, which the emulator does not provide"},
      {"scan_cub_dispatch.cu", "for CUB, which the emulator does not provide"},
      {"histogram_thrust.cu", "for Thrust, which the emulator does not provide"}};
  std::vector<fs::path> paths;
  for (const auto& [file, words] : files) paths.push_back(exploit(file));
  const std::vector<Audited> audited = audit_files(paths, Backend::emu, {lab_library_rules()});
  for (size_t i = 0; i < files.size(); ++i) {
    INFO(describe(audited[i]));
    CHECK_FALSE(audited[i].compiled);
    CHECK_THAT(audited[i].compiler_output, Catch::Contains(files[i].second));
  }
}

TEST_CASE("library algorithms: each lab's library baseline is one (cuda, compile only)") {
  if (!gpulab::toolchain::cuda_backend_available()) {
    WARN("no nvcc here: the cuda backend is not audited");
    return;
  }
  // convolution's baseline is a device-to-device copy: it computes nothing, and is no finding.
  const std::vector<std::pair<std::string, std::string>> baselines = {{"reduction", "cub::DeviceReduce::Sum"},
                                                                      {"scan", "cub::DeviceScan::"},
                                                                      {"histogram", "cub::DeviceHistogram::"},
                                                                      {"matmul", "cublasSgemm_v2"},
                                                                      {"convolution", ""}};
  std::vector<fs::path> paths;
  std::vector<gpulab::audit::LibraryRules> rules;
  for (const auto& [lab, symbol] : baselines) {
    paths.push_back(source_dir() / "reference" / lab / "baseline.cu");
    rules.push_back(lab_library_rules(lab));
  }
  const std::vector<Audited> audited = audit_files(paths, Backend::cuda, rules);
  for (size_t i = 0; i < baselines.size(); ++i) {
    INFO(describe(audited[i]));
    REQUIRE(audited[i].compiled);
    if (baselines[i].second.empty()) {
      CHECK(audited[i].result.findings.empty());
    } else {
      CHECK(has_finding(audited[i].result, FindingKind::library_algorithm, baselines[i].second));
    }
  }
}
