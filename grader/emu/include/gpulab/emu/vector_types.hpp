// CUDA's built-in vector types (dim3, uint3, float4, ...) and their make_* helpers.
#pragma once
#include <cstddef>

#define GPULAB_VEC1(T, N) \
  struct N##1 {           \
    T x;                  \
  };
#define GPULAB_VEC2(T, N)                                         \
  struct alignas(2 * sizeof(T) <= 16 ? 2 * sizeof(T) : 16) N##2 { \
    T x, y;                                                       \
  };
#define GPULAB_VEC3(T, N) \
  struct N##3 {           \
    T x, y, z;            \
  };
#define GPULAB_VEC4(T, N)                                         \
  struct alignas(4 * sizeof(T) <= 16 ? 4 * sizeof(T) : 16) N##4 { \
    T x, y, z, w;                                                 \
  };
#define GPULAB_MAKE(T, N)                                      \
  inline N##1 make_##N##1(T x) { return {x}; }                 \
  inline N##2 make_##N##2(T x, T y) { return {x, y}; }         \
  inline N##3 make_##N##3(T x, T y, T z) { return {x, y, z}; } \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return {x, y, z, w}; }
#define GPULAB_VECTOR_FAMILY(T, N) \
  GPULAB_VEC1(T, N) GPULAB_VEC2(T, N) GPULAB_VEC3(T, N) GPULAB_VEC4(T, N) GPULAB_MAKE(T, N)

GPULAB_VECTOR_FAMILY(signed char, char)
GPULAB_VECTOR_FAMILY(unsigned char, uchar)
GPULAB_VECTOR_FAMILY(short, short)
GPULAB_VECTOR_FAMILY(unsigned short, ushort)
GPULAB_VECTOR_FAMILY(int, int)
GPULAB_VECTOR_FAMILY(unsigned int, uint)
GPULAB_VECTOR_FAMILY(long, long)
GPULAB_VECTOR_FAMILY(unsigned long, ulong)
GPULAB_VECTOR_FAMILY(long long, longlong)
GPULAB_VECTOR_FAMILY(unsigned long long, ulonglong)
GPULAB_VECTOR_FAMILY(float, float)
GPULAB_VECTOR_FAMILY(double, double)

#undef GPULAB_VEC1
#undef GPULAB_VEC2
#undef GPULAB_VEC3
#undef GPULAB_VEC4
#undef GPULAB_MAKE
#undef GPULAB_VECTOR_FAMILY

// dim3: three unsigned extents, unspecified ones default to 1.
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
