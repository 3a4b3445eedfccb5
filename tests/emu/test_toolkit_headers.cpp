// An emulator build of a program that includes a CUDA library header the emulator does not provide
// says which library it is and what to do, beside the compiler's "No such file or directory".
#include <catch2/catch.hpp>

#include "toolchain/toolkit_headers.hpp"

using gpulab::toolchain::toolkit_header_hints;

TEST_CASE("a missing CUDA library header is named with its library, as g++ and clang report it") {
  const std::string gcc =
      toolkit_header_hints("gemm.cu:65:10: fatal error: mma.h: No such file or directory\n   65 | #include <mma.h>\n");
  CHECK_THAT(gcc, Catch::Contains("mma.h is the CUDA toolkit's header for the warp matrix functions") &&
                      Catch::Contains("gpulab run --backend cuda"));
  const std::string clang = toolkit_header_hints("pi.cu:3:10: fatal error: 'curand.h' file not found\n");
  CHECK_THAT(clang, Catch::Contains("curand.h is the CUDA toolkit's header for cuRAND's host API"));
  CHECK_THAT(toolkit_header_hints("sort.cu:31:10: fatal error: thrust/copy.h: No such file or directory\n"),
             Catch::Contains("for Thrust"));
  CHECK_THAT(toolkit_header_hints("f.cu:1:10: fatal error: nppi_filtering_functions.h: No such file or directory\n"),
             Catch::Contains("for NPP"));
  // Each header once; a header of the program's own, or of nothing CUDA, adds nothing.
  const std::string twice = toolkit_header_hints(
      "a.cu:1:10: fatal error: cublas_v2.h: No such file or directory\n"
      "b.cu:1:10: fatal error: cublas_v2.h: No such file or directory\n");
  CHECK(twice.find("cublas_v2.h") == twice.rfind("cublas_v2.h"));
  CHECK(toolkit_header_hints("a.cu:1:10: fatal error: my_helpers.h: No such file or directory\n").empty());
  CHECK(toolkit_header_hints("a.cu:4:3: error: 'foo' was not declared in this scope\n").empty());
}
