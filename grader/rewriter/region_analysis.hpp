// Decides whether a kernel's blocks can run as regions between barriers (region_plan.hpp) and
// plans how. What must hold, each checked on the kernel's own text:
//  * every barrier (__syncthreads and its _count/_and/_or variants) is a statement of its own (or
//    the whole initializer or right-hand side of one) in code that every thread of the block
//    reaches together: the kernel's top level, and the branches and bodies of if, for, while and
//    do statements whose conditions are the same for every thread of the block (they read only
//    blockIdx, blockDim, gridDim, constants, parameters and variables that are themselves the same
//    for every thread, never threadIdx, memory, or a call that is not a known pure function);
//  * a thread leaves early (return) only where no barrier can follow, or where every thread does;
//  * a warp collective (shuffle, vote, __syncwarp) stands where a barrier may, as one whose value
//    each thread leaves before it (region_warps.cpp); no other warp collective, cooperative-groups
//    or cuda::barrier wait, inline PTX that synchronises, goto, label, or conditional directive is
//    in the kernel, no barrier or collective in a lambda, and no call to a function or macro that
//    synchronises;
//  * every variable a later region reads again is either the same for every thread, a constant of
//    the thread's indices (recomputed), a lambda capturing by reference (declared again), or has a
//    type the rewriter can spell (kept in a slot per thread).
// Any doubt leaves the kernel to one fiber per thread, with the reason.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rewriter/program_symbols.hpp"
#include "rewriter/region_plan.hpp"
#include "rewriter/statement_tree.hpp"

namespace gpulab::rewriter {

struct KernelSource {
  std::string name;
  std::size_t params_open = 0, params_close = 0;  // the parameter list's parentheses
  std::size_t body_open = 0, body_close = 0;      // the body's braces
  std::vector<std::string> template_parameters;   // names of its template parameters
};

struct RegionDecision {
  enum class Kind { plain_calls, regions, fibers } kind = Kind::plain_calls;
  std::string reason;                  // fibers: why, naming the line; otherwise a short description
  std::unique_ptr<FunctionBody> body;  // the statements the plan points into
  RegionPlan plan;
};

RegionDecision analyse_kernel(const CodeTokens& t, const ProgramSymbols& symbols, const KernelSource& kernel);

}  // namespace gpulab::rewriter
