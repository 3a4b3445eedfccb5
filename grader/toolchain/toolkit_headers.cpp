// The CUDA toolkit's library headers the emulator does not provide (see toolkit_headers.hpp).
#include "toolkit_headers.hpp"

#include <regex>
#include <set>
#include <utility>

namespace gpulab::toolchain {

namespace {
// A header, or a folder of headers ("thrust/"), and what it belongs to.
const std::pair<const char*, const char*> kLibraries[] = {
    {"mma.h", "the warp matrix functions (nvcuda::wmma, tensor cores)"},
    {"cuda_bf16.h", "the bfloat16 type (__nv_bfloat16)"},
    {"cuda_fp8.h", "the 8-bit floating-point types"},
    {"curand.h",
     "cuRAND's host API (curandCreateGenerator, curandGenerate...; the device API, curand_kernel.h, is provided)"},
    {"cublas_v2.h", "cuBLAS"},
    {"cublas.h", "cuBLAS"},
    {"cublasLt.h", "cuBLAS"},
    {"cublasXt.h", "cuBLAS"},
    {"cufft.h", "cuFFT"},
    {"cufftXt.h", "cuFFT"},
    {"cusparse.h", "cuSPARSE"},
    {"cusolverDn.h", "cuSOLVER"},
    {"cusolverSp.h", "cuSOLVER"},
    {"cusolverRf.h", "cuSOLVER"},
    {"nvrtc.h", "NVRTC (compiling CUDA at run time)"},
    {"nvToolsExt.h", "NVTX (profiler annotations)"},
    {"nvtx3/", "NVTX (profiler annotations)"},
    {"cuda_gl_interop.h", "CUDA's OpenGL interoperability"},
    {"thrust/", "Thrust"},
    {"cub/", "CUB"},
    {"cuda/std/", "libcu++ (CUDA's C++ standard library)"},
    {"npp", "NPP"},
};

const char* library_of(const std::string& header) {
  for (const auto& [name, library] : kLibraries) {
    const std::string n = name;
    if (n.back() == '/' ? header.rfind(n, 0) == 0 : header == n) return library;
    if (n == "npp" && header.rfind("npp", 0) == 0 && header.size() > 2 && header.substr(header.size() - 2) == ".h") {
      return library;
    }
  }
  return nullptr;
}
}  // namespace

std::string toolkit_header_hints(const std::string& compiler_output) {
  // g++: "fatal error: mma.h: No such file or directory"; clang: "fatal error: 'mma.h' file not found".
  static const std::regex missing(R"(fatal error: (?:'([^']+)' file not found|([^:\s]+): No such file or directory))");
  std::set<std::string> named;
  std::string hints;
  for (auto it = std::sregex_iterator(compiler_output.begin(), compiler_output.end(), missing);
       it != std::sregex_iterator(); ++it) {
    const std::string header = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
    const char* library = library_of(header);
    if (!library || !named.insert(header).second) continue;
    hints += "gpulab: " + header + " is the CUDA toolkit's header for " + library +
             ", which the emulator does not provide: run this program on a GPU (gpulab run --backend cuda), or "
             "write this step without it\n";
  }
  return hints;
}

}  // namespace gpulab::toolchain
