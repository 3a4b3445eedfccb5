# Sourced by scripts/build.sh, run-tests.sh and run-platform-tests.sh: with ccache (installed for the tests),
# compiles are cached under paths relative to the repository and without the warning options that
# only gpulab's own CI build adds (-Werror -Wformat=2), so the packages the tests build from their
# own copies of the sources (tests/batch: the Gradescope bundle, the student kit) reuse the main
# build's objects. Both sides must hash the same way: an entry stored with those options in its
# key would never serve a build without them.
if command -v ccache >/dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
  export CCACHE_IGNOREOPTIONS=${CCACHE_IGNOREOPTIONS:-"-Werror -Wformat=2"}
  # The emulator's libraries compile with a precompiled header (cmake/build_speed.cmake), which ccache
  # caches only when told that it cannot see the defines and time macros behind it (gpulab's code
  # uses neither __DATE__ nor __TIME__).
  export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
  # One run of the suite stores several GB (the main build, the packages' builds, the clang and
  # aarch64 builds); ccache's default 5 GB would evict part of it before the next run.
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-12G}
fi
