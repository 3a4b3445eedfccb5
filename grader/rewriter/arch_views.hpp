// `__CUDA_ARCH__` as nvcc's two passes see it, in one compilation. nvcc compiles a .cu file twice:
// the device pass defines `__CUDA_ARCH__` (900 for sm_90) and keeps the device code, the host pass
// leaves it undefined and keeps the host code. The emulator compiles the file once, so this step
// writes each piece of code as the pass that owns it reads it:
//
// * the body of a kernel or of a `__device__` function: as the device pass reads it (each `#if`
//   on `__CUDA_ARCH__` resolved for the device; `__CUDA_ARCH__` outside a directive stays, an
//   error as in nvcc's host pass, which parses every body);
// * the body of a host function (`__host__` alone): as the host pass reads it;
// * the body of a `__host__ __device__` function (or one whose qualifiers the rewriter cannot see,
//   e.g. from a macro) that tests `__CUDA_ARCH__`: both readings, chosen when it runs:
//   `{ if (::gpulab::emu::in_device_code()) { device reading } else { host reading } }`, each
//   behind a `#line` so that the compiler and the debugger name the original lines;
// * a group at namespace scope that the passes read differently (`#if __CUDA_ARCH__ >= 700`
//   around device functions, `#ifndef __CUDA_ARCH__` around host code): the device pass's branch
//   as the device reads it, then the host pass's branch without its kernels and `__device__`
//   functions (which the host pass never runs); when a condition also names a macro the rewriter
//   cannot know, each possible pair of branches is written under an `#if` the compiler evaluates;
// * a macro whose value depends on `__CUDA_ARCH__` (arch_macros.hpp): defined under its device
//   name too, which device code uses.
//
// What cannot be written so is refused with a RewriteError that says why: a group that begins
// inside a function or declaration and ends outside it, branches that open braces they do not
// close, a group that changes a class's data members or a declaration that device and host code
// share, and `goto` in a function whose body is written twice.
#pragma once

#include "rewriter/pp_conditionals.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace gpulab::rewriter {

struct ArchRewrite {
  std::string text;
  // Element k: the line of `source` that line k + 1 of text stands for; empty when every line of
  // text is the same line of source.
  std::vector<int> line_map;
};

// Throws RewriteError.
ArchRewrite rewrite_arch_views(std::string_view source, std::string_view file_name, const ArchContext& ctx);

}  // namespace gpulab::rewriter
