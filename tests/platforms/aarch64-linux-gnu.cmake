# CMake toolchain file: gpulab cross-compiled for 64-bit Arm Linux with Debian's cross g++
# (g++-aarch64-linux-gnu) against the arm64 libraries of a multiarch system (dpkg
# --add-architecture arm64; libfmt-dev:arm64 libssl-dev:arm64 libhowardhinnant-date-dev:arm64).
# The programs it builds run here under qemu-user (tests/platforms/arm64_qemu.sh). On an arm64
# machine none of this is needed: gpulab builds natively.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Libraries and CMake packages of the target only (/usr/lib/aarch64-linux-gnu); headers and
# architecture-independent packages (nlohmann-json, CLI11, Catch2) from /usr as usual.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# What runs the build's own aarch64 programs (gpulab rewriting the tests' .cu files, Catch2 listing
# their tests, CTest): CMake names the programs with it, binfmt_misc would run them anyway.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
# pkg-config (FindOpenSSL asks it first) reads the target's .pc files, not this machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
