// What a file declares at namespace and class scope, as far as the region transformation needs it
// (region_analysis.hpp): its functions (which of them synchronise threads, directly or through the
// functions they call, and which may modify an argument through a reference parameter), its
// macros, the names of its constants, types and variables that device code may write.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rewriter/code_tokens.hpp"

namespace gpulab::rewriter {

struct FunctionSymbol {
  std::size_t body_open = 0, body_close = 0;  // its body's braces
  bool reference_parameter = false;           // a parameter `T&` or `T&&` (not `const T&`)
};

struct MacroSymbol {
  std::vector<std::string> parameters;  // a function-like macro's
  std::vector<std::size_t> body;        // its replacement's tokens
};

struct ProgramSymbols {
  std::map<std::string, std::vector<FunctionSymbol>, std::less<>> functions;  // by unqualified name
  std::map<std::string, MacroSymbol, std::less<>> macros;
  std::set<std::string, std::less<>> constants;          // const/constexpr/__constant__ variables, enumerators
  std::set<std::string, std::less<>> mutable_variables;  // other variables at namespace scope
  std::set<std::string, std::less<>> types;              // classes, enums, aliases, typedefs
  // Functions and macros whose code reaches a thread synchronisation (a barrier, a warp collective,
  // a cooperative-groups or cuda::barrier wait), directly or through one another.
  std::set<std::string, std::less<>> synchronising;
};

ProgramSymbols program_symbols(const CodeTokens& t);

// What the program's files (its sources and local headers) declare, as names: a kernel in one file
// may call another file's function that synchronises, or read its constants.
struct ProgramNames {
  std::set<std::string, std::less<>> synchronising;  // functions and macros
  std::set<std::string, std::less<>> constants;      // constants, enumerators, macros that are constants
  std::set<std::string, std::less<>> types;
  std::set<std::string, std::less<>> mutable_variables;
};
ProgramNames program_names(const std::vector<std::string_view>& texts);
// A file's own symbols, with what the program's other files declare added.
void add_program_names(ProgramSymbols& symbols, const ProgramNames& program);

// A name whose call synchronises threads or reads which of them are live: __syncthreads and its
// variants, __syncwarp, the shuffles, votes and matches, __activemask, the warp reductions.
bool is_sync_builtin(std::string_view name);
bool is_block_barrier(std::string_view name);  // __syncthreads, __syncthreads_count/_and/_or
// Names that belong to waits the region transformation does not model: cooperative groups,
// cuda::barrier and cuda::pipeline, grid synchronisation.
bool is_group_wait_name(std::string_view name);
// A member function of cuda::barrier, cuda::pipeline or a group (`bar.arrive()`, `block.sync()`,
// `tile.shfl_down(v, 1)`, `cg::sync(g)`), whatever alias the object's type has: a wait when called
// as a member or qualified.
bool is_group_wait_member(std::string_view name);

// Functions that compute a value from their arguments only, and take them by value or const
// reference (min, max, the integer intrinsics, the make_ vector constructors, ...).
bool is_pure_builtin(std::string_view name);
// Type names every CUDA file may use without declaring them (size_t, uint32_t, float4, ...).
bool is_builtin_type_name(std::string_view name);

}  // namespace gpulab::rewriter
