// The plan for running a kernel's block as regions between barriers (region_analysis.hpp makes
// it, region_emit.hpp writes it out). The kernel's statements are split into code that runs once
// per block ("block level": the control statements around barriers, the barriers, and the
// statements that only compute values every thread agrees on) and regions: runs of statements
// between barriers, each run as one loop over the block's threads. Variables that every thread
// computes alike are kept once (uniform); the others live in the loop's body, and those a later
// region reads again are recomputed there (a constant of the thread's indices), declared again (a
// lambda that captures by reference) or kept in an array with a slot per thread.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "rewriter/declaration_parse.hpp"
#include "rewriter/statement_tree.hpp"

namespace gpulab::rewriter {

enum class VarKind {
  uniform,     // one copy at block level
  thread,      // an ordinary local of the one region that uses it
  recomputed,  // its declaration is copied into every region that reads it
  stored,      // an array with one slot per thread
};

struct RegionVar {
  std::string name;
  std::size_t name_token = 0;
  bool parameter = false;
  const Stmt* statement = nullptr;  // the declaration (a plain statement, or a block-level for's init)
  std::size_t declarator = 0;       // which declarator of it
  Declaration declaration;          // (empty for a parameter)
  int region = -1;                  // the region whose statements declare it (-1: block level)
  bool shared = false;              // a __shared__ declaration
  bool lambda = false;              // initialised with a lambda expression
  VarKind kind = VarKind::uniform;
  std::string type;  // stored: its type-id
};

// `v = __syncthreads_count(p);` and its kind, or a warp collective that every thread of the block
// reaches together (region_warps.cpp): `v += __shfl_down_sync(mask, v, d);`, `__syncwarp();`.
struct ValuedBarrier {
  std::size_t call_first = 0, call_last = 0;  // the call, replaced by its result
  TokenRange predicate;      // what each thread leaves at the end of the region before (a shuffle's value)
  std::string combine;       // "count", "all" or "any"; a warp collective's WarpOp ("shfl_down", "ballot", "sync", ...)
  bool warp = false;         // a warp collective: its result is the thread's own, not the block's
  bool result_used = false;  // the statement goes on with the result in the region after it
  TokenRange mask, lane, width;  // warp: the uniform mask, the receiving thread's lane or delta, the uniform width
};

struct Region {
  std::vector<const Stmt*> statements;     // in order; those in `hoisted` run at block level instead
  std::vector<const Stmt*> before, after;  // hoisted to block level before / after the loop
  std::vector<int> bindings;               // variables declared elsewhere that its statements read (declaration order)
  std::vector<int> declares_stored;        // stored variables its statements declare
  bool call_outs = false;                  // calls code that may read the thread's indices from the runtime
  bool returns = false;                    // a thread may return in it (no barrier follows)
  int predicate_of = -1;                   // a valued barrier right after it: its predicate ends the region
  bool short_body = false;                 // a few statements without loops: the loop over the threads is unrolled
  // The region ends with `if (v < u) ...` (no else), v growing with the thread's x index and u
  // uniform, and before it only declarations of the thread's own values: the threads from the first
  // for which the condition is false on do nothing, so the loop over x stops there
  // (region_loops.cpp, region_growth.cpp). stop_before: the if; stop_unless: its condition;
  // stop_value: v, which must also be >= 0 (where v is arithmetic: an unsigned comparison would
  // reorder negative values); stop_guards: values that must be >= 0 for v to grow.
  const Stmt* stop_before = nullptr;
  TokenRange stop_unless;
  TokenRange stop_value;
  std::vector<TokenRange> stop_guards;
};

// What a block-level sequence (a compound statement, or the single statement a control statement
// governs) is made of, in order.
struct SequenceItem {
  const Stmt* statement = nullptr;  // a block-level statement, or
  int region = -1;                  // a region
};

struct RegionPlan {
  std::vector<RegionVar> vars;
  std::vector<Region> regions;
  std::map<const Stmt*, std::vector<SequenceItem>> sequences;
  std::set<const Stmt*> block_level;          // statements run once per block
  std::set<const Stmt*> hoisted;              // plain statements (or some of their declarators) run at block level
  std::map<std::size_t, int> declarator_var;  // a declarator's name token -> its variable
  std::map<const Stmt*, int> barrier_of;      // valued barriers by statement
  std::vector<ValuedBarrier> barriers;
  std::map<const Stmt*, int> after_barrier;  // the statement that uses a valued barrier's result
  std::set<std::size_t> thread_returns;      // `return` tokens that end a thread (inside regions)
  bool shadow_block_values = true;           // no captureless lambda: blockIdx etc. may be local copies
  bool warp_collectives = false;             // a barrier is a warp collective: whole warps only
};

}  // namespace gpulab::rewriter
