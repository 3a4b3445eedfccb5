// The analysis behind analyse_kernel (region_analysis.hpp), shared by its three parts:
// region_analysis.cpp (the checks on the whole kernel, and the split into block-level statements
// and regions), region_names.cpp (the variables and what each statement reads and writes of them)
// and region_uniformity.cpp (which values every thread agrees on, what moves to block level, and
// how each other variable reaches the regions that read it).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rewriter/expression_scan.hpp"
#include "rewriter/region_analysis.hpp"

namespace gpulab::rewriter {

// The warp collectives the region form runs (region_warps.cpp): shuffles, votes, __syncwarp.
bool is_region_warp_collective(std::string_view name);

// What one piece of the kernel (a plain statement, a condition) does with the kernel's variables.
struct Facts {
  std::set<int> mentions;                    // variables it names, also through a lambda it calls or a macro it uses
  std::set<int> writes;                      // variables it may change (assigned, incremented, address taken, ...)
  std::set<std::string, std::less<>> names;  // every name it uses, whatever it refers to
  bool calls_out = false;                    // calls code that may read the thread's indices from the runtime
};

// A value read by growth_of: whether it depends on the thread, whether its arithmetic keeps order
// (signed or floating; unsigned wraps), whether arithmetic on the thread's index made it.
struct Growth {
  bool thread = false;
  bool ordered = false;
  bool arithmetic = false;
};

class RegionAnalysis {
 public:
  RegionAnalysis(const CodeTokens& t, const ProgramSymbols& symbols, const KernelSource& kernel, FunctionBody& body,
                 RegionPlan& plan)
      : t_(t), sym_(symbols), k_(kernel), body_(body), plan_(plan) {}

  // Returns "" when the plan is complete, else why the kernel keeps one fiber per thread.
  std::string run();

  // --- region_analysis.cpp: the kernel's structure ---
  std::string check_kernel_text();
  bool contains_barrier(const Stmt& s) const;
  bool build_sequence(const Stmt& key, const std::vector<const Stmt*>& children, bool barrier_after);
  bool block_level_statement(const Stmt& s, bool barrier_after);
  bool escapes(const Stmt& s, bool barrier_after) const;
  void collect_thread_returns(const Stmt& s);
  bool valued_barrier(const Stmt& s, int& region);
  int region_for(int& current);

  // --- region_names.cpp: variables and facts ---
  void collect_variables();
  void add_declaration_vars(const Stmt& s, int region, TokenRange scope);
  int resolve(std::size_t token) const { return resolve_name(t_.text(token), token); }
  int resolve_name(std::string_view name, std::size_t at) const;
  Facts facts_of(TokenRange r) const;
  void compute_statement_facts();
  bool is_pointer(const RegionVar& v) const;
  bool call_may_modify(std::size_t call_open) const;

  // --- region_uniformity.cpp: values every thread agrees on, values a thread can compute again ---
  // A value every thread computes alike (for_var < 0), or one a thread can compute again in a later
  // region with the same result, for the initializer of variable `for_var`: its indices, uniform
  // values that do not change while `for_var` lives, other such variables.
  bool pure_value(TokenRange r, int for_var, std::string* why) const;
  bool pure_tokens(const std::vector<std::size_t>& tokens, std::size_t at, int for_var, std::string* why,
                   int depth) const;
  // Variable v's type is the program's own or a template parameter (not a pointer): constructing,
  // copying or operating on it may run the program's code.
  bool of_program_type(int v) const;
  bool written_anywhere(int v, const Stmt* except_for) const;
  bool stable_for(int u, int v) const;
  bool recomputable_var(int v) const;

  // --- region_placement.cpp: what moves to block level, where each variable lives ---
  std::string settle_uniform_variables();
  void hoist_region(Region& region, int index);
  bool uniform_assignment(TokenRange r, int* target) const;
  std::string check_conditions() const;
  std::string place_thread_variables();
  bool unknown_bound(const Declarator& d) const;

  // --- region_groups.cpp: cooperative groups' thread block ---
  void collect_block_groups();
  bool is_block_group(std::size_t i) const;
  // A barrier call at token i (__syncthreads..., or a thread block's sync): its closing ')'.
  std::optional<std::size_t> block_sync_at(std::size_t i) const;
  std::size_t block_sync_start(std::size_t i) const;

  // --- region_warps.cpp: warp collectives every thread of the block reaches together ---
  bool warp_statement(const Stmt& s, int& region);
  std::string side_effects_in(TokenRange r) const;  // "" or what the value does besides being read
  bool template_call_before(std::size_t open, std::size_t first) const;
  std::string check_warp_arguments() const;

  // --- region_loops.cpp: how each region's loop is written ---
  void shape_region_loops();
  bool is_thread_x(TokenRange r) const;
  bool stop_early(const Stmt& s, const std::set<int>& locals, Region& region) const;
  std::optional<std::set<int>> plain_locals(const Stmt& s) const;
  // --- region_growth.cpp: values that never decrease along a row of threads ---
  // `locals`: variables declared by the region's statements before the one read; `guards` gets
  // the values that must be >= 0 for r to grow.
  std::optional<Growth> growth_of(TokenRange r, const std::set<int>& locals, std::vector<TokenRange>& guards,
                                  int depth) const;

  std::string where(std::size_t token) const;  // "line N"
  bool fail(std::string why) {
    if (failure_.empty()) failure_ = std::move(why);
    return false;
  }
  bool any_barrier() const { return contains_barrier(body_.body); }
  const Facts& lambda_facts(int v) const;

  const CodeTokens& t_;
  const ProgramSymbols& sym_;
  const KernelSource& k_;
  FunctionBody& body_;
  RegionPlan& plan_;

  std::map<const Stmt*, Facts> statement_facts_;  // plain statements and block-level pieces
  std::map<int, Facts> predicate_facts_;          // by region: the valued barrier's predicate
  std::map<std::string, std::vector<int>, std::less<>> vars_by_name_;
  std::map<int, TokenRange> var_scope_;            // where each variable is visible
  std::set<int> uniform_;                          // the variables every thread agrees on
  std::map<int, std::set<int>> loop_variable_of_;  // a block-level for's variables -> its body's vars
  std::vector<const Stmt*> block_fors_;
  std::vector<const Stmt*> block_conditions_;        // if/while/do/for statements at block level
  std::map<int, const Stmt*> region_sequence_;       // each region's block-level sequence
  std::set<std::string, std::less<>> block_groups_;  // variables holding cooperative groups' thread block
  std::map<const Stmt*, Facts> inc_facts_;           // block-level for loops' increments
  mutable std::map<int, Facts> lambda_facts_;        // a lambda variable's body
  mutable std::set<int> lambda_in_progress_;
  mutable std::map<int, bool> recomputable_;
  const Stmt* sequence_key_ = nullptr;  // the sequence build_sequence is in
  std::string failure_;
  bool has_captureless_lambda_ = false;
};

}  // namespace gpulab::rewriter
