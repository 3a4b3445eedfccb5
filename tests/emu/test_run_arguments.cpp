// How `gpulab run` splits its words into sources and program arguments (run_arguments.hpp).
#include <catch2/catch.hpp>

#include "cli/run_arguments.hpp"

using gpulab::cli::RunArguments;
using gpulab::cli::RunUsageError;
using gpulab::cli::split_run_arguments;
using Words = std::vector<std::string>;

TEST_CASE("leading sources, then bare words for the program") {
  const RunArguments a = split_run_arguments({"main.cu", "host.cpp", "util.c", "100003", "data.txt"});
  CHECK(a.sources == Words{"main.cu", "host.cpp", "util.c"});
  CHECK(a.program_args == Words{"100003", "data.txt"});
  CHECK_FALSE(a.help);
}

TEST_CASE("a source name after the first program argument is a program argument") {
  const RunArguments a = split_run_arguments({"main.cu", "input.bin", "other.cu"});
  CHECK(a.sources == Words{"main.cu"});
  CHECK(a.program_args == Words{"input.bin", "other.cu"});
}

TEST_CASE("everything after -- goes to the program as written") {
  const RunArguments a = split_run_arguments({"main.cu", "7", "--", "-wA=64", "-hA=3", "--", "x.cu", "-h"});
  CHECK(a.sources == Words{"main.cu"});
  CHECK(a.program_args == Words{"7", "-wA=64", "-hA=3", "--", "x.cu", "-h"});
  CHECK_FALSE(a.help);
}

TEST_CASE("negative numbers are program arguments") {
  CHECK(split_run_arguments({"main.cu", "-5", "-0.25", "-.5"}).program_args == Words{"-5", "-0.25", "-.5"});
}

TEST_CASE("an option gpulab does not know before -- is refused, naming it and --") {
  for (const char* option : {"-wA=64", "-hA=3", "--size=4", "-x"}) {
    INFO(option);
    try {
      split_run_arguments({"main.cu", option});
      FAIL("accepted");
    } catch (const RunUsageError& e) {
      const std::string what = e.what();
      CHECK(what.find(std::string("unknown option '") + option + "'") != std::string::npos);
      CHECK(what.find("gpulab run main.cu -- " + std::string(option)) != std::string::npos);
    }
  }
}

TEST_CASE("a lone -h asks for help") { CHECK(split_run_arguments({"main.cu", "-h"}).help); }

TEST_CASE("headers, a first word that is not a source, and no source at all are refused") {
  CHECK_THROWS_WITH(split_run_arguments({"main.cu", "kernels.cuh"}), Catch::Contains("'kernels.cuh' is a header"));
  CHECK_THROWS_WITH(split_run_arguments({"notes.txt", "main.cu"}), Catch::Contains("'notes.txt' is not a source file"));
  CHECK_THROWS_WITH(split_run_arguments({}), Catch::Contains("no source file"));
  CHECK_THROWS_WITH(split_run_arguments({"--", "main.cu"}), Catch::Contains("no source file"));
}
