// Catch2 main for the rewriter tests (kept separate so the test files compile faster).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
