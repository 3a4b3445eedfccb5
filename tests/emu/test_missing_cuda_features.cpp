// An emulator build of a program that uses part of CUDA the emulator does not provide (a library's
// header, textures, surfaces, conditional graph nodes) says what it is and what to do, beside the
// compiler's "No such file or directory" or "was not declared".
#include <catch2/catch.hpp>

#include "toolchain/missing_cuda_features.hpp"

using gpulab::toolchain::missing_cuda_feature_hints;

TEST_CASE("a missing CUDA library header is named with its library, as g++ and clang report it") {
  const std::string gcc = missing_cuda_feature_hints(
      "gemm.cu:65:10: fatal error: mma.h: No such file or directory\n   65 | #include <mma.h>\n");
  CHECK_THAT(gcc, Catch::Contains("mma.h is the CUDA toolkit's header for the warp matrix functions") &&
                      Catch::Contains("gpulab run --backend cuda"));
  const std::string clang = missing_cuda_feature_hints("pi.cu:3:10: fatal error: 'curand.h' file not found\n");
  CHECK_THAT(clang, Catch::Contains("curand.h is the CUDA toolkit's header for cuRAND's host API"));
  CHECK_THAT(missing_cuda_feature_hints("sort.cu:31:10: fatal error: thrust/copy.h: No such file or directory\n"),
             Catch::Contains("for Thrust"));
  CHECK_THAT(
      missing_cuda_feature_hints("f.cu:1:10: fatal error: nppi_filtering_functions.h: No such file or directory\n"),
      Catch::Contains("for NPP"));
  CHECK_THAT(missing_cuda_feature_hints("c.cu:2:10: fatal error: cudnn.h: No such file or directory\n"),
             Catch::Contains("cudnn.h is the CUDA toolkit's header for cuDNN"));
  // Each header once; a header of the program's own, or of nothing CUDA, adds nothing.
  const std::string twice = missing_cuda_feature_hints(
      "a.cu:1:10: fatal error: cublas_v2.h: No such file or directory\n"
      "b.cu:1:10: fatal error: cublas_v2.h: No such file or directory\n");
  CHECK(twice.find("cublas_v2.h") == twice.rfind("cublas_v2.h"));
  CHECK(missing_cuda_feature_hints("a.cu:1:10: fatal error: my_helpers.h: No such file or directory\n").empty());
  CHECK(missing_cuda_feature_hints("a.cu:4:3: error: 'foo' was not declared in this scope\n").empty());
}

TEST_CASE("textures, surfaces and conditional graph nodes are named as what the emulator lacks") {
  const std::string gcc = missing_cuda_feature_hints(
      "t.cu:74:90: error: 'cudaTextureObject_t' has not been declared\n"
      "t.cu:79:32: error: 'tex2D' was not declared in this scope\n");
  CHECK_THAT(gcc, Catch::Contains("gpulab: cudaTextureObject_t belongs to CUDA's textures") &&
                      Catch::Contains("gpulab run --backend cuda"));
  CHECK(gcc.find("tex2D") == std::string::npos);  // one sentence per feature
  // g++ in a UTF-8 locale quotes with ‘’.
  CHECK_THAT(missing_cuda_feature_hints("t.cu:79:32: error: \u2018tex2D\u2019 was not declared in this scope\n"),
             Catch::Contains("gpulab: tex2D belongs to CUDA's textures"));
  CHECK_THAT(missing_cuda_feature_hints("s.cu:3:5: error: use of undeclared identifier 'surf2Dwrite'\n"),
             Catch::Contains("CUDA's surfaces"));
  CHECK_THAT(missing_cuda_feature_hints("g.cu:60:44: error: 'cudaGraphConditionalHandle' does not name a type\n"),
             Catch::Contains("CUDA graphs' conditional nodes") && Catch::Contains("decide on the host"));
  CHECK(missing_cuda_feature_hints("a.cu:4:3: error: 'my_tex2D' was not declared in this scope\n").empty());
}
