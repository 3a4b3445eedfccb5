// The CUDA toolkit's library headers and runtime features the emulator does not provide (see
// missing_cuda_features.hpp).
#include "missing_cuda_features.hpp"

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
    {"cudnn.h", "cuDNN"},
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

// Names of the runtime API the emulator lacks: the feature each belongs to and what to do instead.
struct Feature {
  const char* name;
  const char* feature;
  const char* instead;
};
constexpr const char* kReadGlobal = "read the data from global memory instead";
const Feature kFeatures[] = {
    {"cudaTextureObject_t", "CUDA's textures", kReadGlobal},
    {"cudaCreateTextureObject", "CUDA's textures", kReadGlobal},
    {"cudaTextureDesc", "CUDA's textures", kReadGlobal},
    {"cudaResourceDesc", "CUDA's textures", kReadGlobal},
    {"tex1Dfetch", "CUDA's textures", kReadGlobal},
    {"tex1D", "CUDA's textures", kReadGlobal},
    {"tex2D", "CUDA's textures", kReadGlobal},
    {"tex3D", "CUDA's textures", kReadGlobal},
    {"tex1DLayered", "CUDA's textures", kReadGlobal},
    {"tex2DLayered", "CUDA's textures", kReadGlobal},
    {"texCubemap", "CUDA's textures", kReadGlobal},
    {"tex2Dgather", "CUDA's textures", kReadGlobal},
    {"cudaSurfaceObject_t", "CUDA's surfaces", "write to global memory instead"},
    {"cudaCreateSurfaceObject", "CUDA's surfaces", "write to global memory instead"},
    {"surf1Dwrite", "CUDA's surfaces", "write to global memory instead"},
    {"surf2Dwrite", "CUDA's surfaces", "write to global memory instead"},
    {"surf3Dwrite", "CUDA's surfaces", "write to global memory instead"},
    {"surf1Dread", "CUDA's surfaces", kReadGlobal},
    {"surf2Dread", "CUDA's surfaces", kReadGlobal},
    {"surf3Dread", "CUDA's surfaces", kReadGlobal},
    {"cudaMallocArray", "CUDA arrays", "allocate with cudaMalloc or cudaMallocPitch instead"},
    {"cudaMalloc3DArray", "CUDA arrays", "allocate with cudaMalloc3D instead"},
    {"cudaMemcpy2DToArray", "CUDA arrays", "copy with cudaMemcpy2D to linear memory instead"},
    {"cudaMemcpyToArray", "CUDA arrays", "copy with cudaMemcpy to linear memory instead"},
    {"cudaChannelFormatDesc", "CUDA arrays", "allocate with cudaMalloc or cudaMallocPitch instead"},
    {"cudaCreateChannelDesc", "CUDA arrays", "allocate with cudaMalloc or cudaMallocPitch instead"},
    {"cudaFreeArray", "CUDA arrays", "allocate with cudaMalloc or cudaMallocPitch instead"},
    {"cudaGraphConditionalHandle", "CUDA graphs' conditional nodes",
     "decide on the host between graph launches instead"},
    {"cudaGraphSetConditional", "CUDA graphs' conditional nodes", "decide on the host between graph launches instead"},
    {"cudaGraphConditionalHandleCreate", "CUDA graphs' conditional nodes",
     "decide on the host between graph launches instead"},
};

const Feature* feature_of(const std::string& name) {
  for (const Feature& f : kFeatures) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

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

std::string missing_cuda_feature_hints(const std::string& compiler_output) {
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
  // g++: "'tex2D' was not declared in this scope", "'cudaTextureObject_t' has not been declared",
  // "'cudaTextureObject_t' does not name a type"; clang: "use of undeclared identifier 'tex2D'",
  // "unknown type name 'cudaTextureObject_t'".
  // g++ quotes with ‘’ where the locale is UTF-8.
  static const std::regex undeclared(
      "error: (?:(?:'|\u2018)([A-Za-z_0-9]+)(?:'|\u2019) (?:was not declared|has not been declared|does not name a "
      "type)|(?:use of undeclared identifier|unknown type name) '([A-Za-z_0-9]+)')");
  std::set<std::string> features;
  for (auto it = std::sregex_iterator(compiler_output.begin(), compiler_output.end(), undeclared);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
    const Feature* f = feature_of(name);
    if (!f || !features.insert(f->feature).second) continue;
    hints += "gpulab: " + name + " belongs to " + f->feature +
             ", which the emulator does not provide: run this program on a GPU (gpulab run --backend cuda), or " +
             f->instead + "\n";
  }
  return hints;
}

}  // namespace gpulab::toolchain
