// The names of CUDA's built-ins as the region analysis sorts them (program_symbols.hpp): barriers
// and warp collectives, the waits of cooperative groups and cuda::barrier, pure functions, and
// the types every CUDA file may use without declaring them.
#include <initializer_list>
#include <string_view>

#include "rewriter/program_symbols.hpp"

namespace gpulab::rewriter {
namespace {

bool builtin_one_of(std::string_view w, std::initializer_list<std::string_view> words) {
  for (std::string_view x : words)
    if (w == x) return true;
  return false;
}

}  // namespace

bool is_block_barrier(std::string_view name) {
  return builtin_one_of(name, {"__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or"});
}

bool is_sync_builtin(std::string_view name) {
  if (is_block_barrier(name)) return true;
  return builtin_one_of(name, {"__syncwarp",
                               "__shfl_sync",
                               "__shfl_up_sync",
                               "__shfl_down_sync",
                               "__shfl_xor_sync",
                               "__shfl",
                               "__shfl_up",
                               "__shfl_down",
                               "__shfl_xor",
                               "__ballot_sync",
                               "__ballot",
                               "__any_sync",
                               "__all_sync",
                               "__any",
                               "__all",
                               "__uni_sync",
                               "__match_any_sync",
                               "__match_all_sync",
                               "__activemask",
                               "__reduce_add_sync",
                               "__reduce_min_sync",
                               "__reduce_max_sync",
                               "__reduce_and_sync",
                               "__reduce_or_sync",
                               "__reduce_xor_sync",
                               "__barrier_sync",
                               "__barrier_sync_count"});
}

bool is_group_wait_name(std::string_view name) {
  return builtin_one_of(name, {"cooperative_groups",
                               "this_thread_block",
                               "this_grid",
                               "this_multi_grid",
                               "tiled_partition",
                               "coalesced_threads",
                               "thread_block",
                               "thread_block_tile",
                               "grid_group",
                               "coalesced_group",
                               "barrier_arrive",
                               "barrier_wait",
                               "arrive_and_wait",
                               "arrive_and_drop",
                               "memcpy_async",
                               "pipeline",
                               "make_pipeline",
                               "pipeline_shared_state",
                               "producer_acquire",
                               "consumer_wait",
                               "barrier",
                               "cuda",
                               "labeled_partition",
                               "binary_partition",
                               "invoke_one"});
}

bool is_group_wait_member(std::string_view name) {
  return builtin_one_of(name, {"sync",
                               "arrive",
                               "wait",
                               "wait_parity",
                               "try_wait",
                               "try_wait_parity",
                               "producer_commit",
                               "consumer_release",
                               "quit",
                               "shfl",
                               "shfl_up",
                               "shfl_down",
                               "shfl_xor",
                               "ballot",
                               "any",
                               "all",
                               "match_any",
                               "match_all",
                               "reduce",
                               "inclusive_scan",
                               "exclusive_scan",
                               "thread_rank",
                               "meta_group_rank",
                               "num_threads",
                               "size"});
}

bool is_pure_builtin(std::string_view name) {
  return builtin_one_of(name, {"min",
                               "max",
                               "umin",
                               "umax",
                               "llmin",
                               "llmax",
                               "ullmin",
                               "ullmax",
                               "abs",
                               "labs",
                               "llabs",
                               "fabs",
                               "fabsf",
                               "fmin",
                               "fminf",
                               "fmax",
                               "fmaxf",
                               "ceil",
                               "ceilf",
                               "floor",
                               "floorf",
                               "sqrt",
                               "sqrtf",
                               "rsqrtf",
                               "log2",
                               "log2f",
                               "exp2f",
                               "__popc",
                               "__popcll",
                               "__clz",
                               "__clzll",
                               "__ffs",
                               "__ffsll",
                               "__brev",
                               "__brevll",
                               "__mul24",
                               "__umul24",
                               "__mulhi",
                               "__umulhi",
                               "__float_as_uint",
                               "__uint_as_float",
                               "__float_as_int",
                               "__int_as_float",
                               "__double_as_longlong",
                               "__longlong_as_double",
                               "make_int2",
                               "make_int3",
                               "make_int4",
                               "make_uint2",
                               "make_uint3",
                               "make_uint4",
                               "make_float2",
                               "make_float3",
                               "make_float4",
                               "make_double2",
                               "dim3",
                               "this_thread_block"});
}

bool is_builtin_type_name(std::string_view name) {
  return builtin_one_of(name,
                        {"size_t",  "ptrdiff_t", "uintptr_t", "intptr_t",   "int8_t", "int16_t", "int32_t", "int64_t",
                         "uint8_t", "uint16_t",  "uint32_t",  "uint64_t",   "float2", "float3",  "float4",  "int2",
                         "int3",    "int4",      "uint2",     "uint3",      "uint4",  "double2", "dim3",    "half",
                         "__half",  "__half2",   "longlong2", "ulonglong2", "char4",  "uchar4",  "short2",  "ushort2"});
}

}  // namespace gpulab::rewriter
