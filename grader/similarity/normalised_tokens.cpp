// normalise: the CUDA lexer's tokens, trivia and directives dropped, names and literals folded.
#include "similarity/normalised_tokens.hpp"

#include <algorithm>
#include <iterator>

#include "rewriter/code_tokens.hpp"
#include "rewriter/cuda_lexer.hpp"

namespace gpulab::similarity {
namespace {

std::uint64_t fnv1a(std::string_view text, std::uint64_t salt) {
  std::uint64_t h = 0xcbf29ce484222325ull ^ salt;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

// Kinds of folded tokens: distinct salts keep "a name" apart from a punctuation character "I".
constexpr std::uint64_t kName = 1, kNumber = 2, kString = 3, kChar = 4, kText = 5;

// Names CUDA, its runtime and the C++ library give; a student uses them but does not choose them.
constexpr std::string_view kCudaNames[] = {"threadIdx",
                                           "blockIdx",
                                           "blockDim",
                                           "gridDim",
                                           "warpSize",
                                           "dim3",
                                           "atomicAdd",
                                           "atomicSub",
                                           "atomicMax",
                                           "atomicMin",
                                           "atomicExch",
                                           "atomicCAS",
                                           "atomicInc",
                                           "atomicDec",
                                           "atomicAnd",
                                           "atomicOr",
                                           "atomicXor",
                                           "size_t",
                                           "uint32_t",
                                           "uint64_t",
                                           "int32_t",
                                           "int64_t",
                                           "uint8_t",
                                           "printf",
                                           "min",
                                           "max",
                                           "std",
                                           "sqrtf",
                                           "fminf",
                                           "fmaxf",
                                           "fabsf",
                                           "expf",
                                           "logf",
                                           "floorf",
                                           "ceilf",
                                           "float2",
                                           "float4",
                                           "int2",
                                           "int4",
                                           "uint2",
                                           "uint4",
                                           "make_float2",
                                           "make_float4",
                                           "make_int2",
                                           "make_int4",
                                           "memcpy",
                                           "memset",
                                           "assert",
                                           "NAN",
                                           "INFINITY",
                                           "INT_MIN",
                                           "INT_MAX",
                                           "FLT_MAX",
                                           "UINT_MAX",
                                           "cooperative_groups",
                                           "thread_block",
                                           "this_thread_block",
                                           "tiled_partition",
                                           "sync",
                                           "thread_rank"};

}  // namespace

bool is_fixed_name(std::string_view identifier) {
  if (rewriter::is_cpp_keyword(identifier)) return true;
  if (identifier.starts_with("__") || identifier.starts_with("cuda") || identifier.starts_with("cub")) return true;
  return std::find(std::begin(kCudaNames), std::end(kCudaNames), identifier) != std::end(kCudaNames);
}

std::vector<NormalisedToken> normalise(std::string_view source) {
  using rewriter::TokenKind;
  std::vector<NormalisedToken> out;
  const std::vector<rewriter::Token> tokens = rewriter::lex_cuda(source);
  const rewriter::Token* previous = nullptr;  // the last significant token kept
  for (const rewriter::Token& t : tokens) {
    if (rewriter::is_trivia(t.kind) || t.directive != 0) continue;
    const std::string_view text = t.text(source);
    std::uint64_t symbol = 0;
    switch (t.kind) {
      case TokenKind::Identifier: {
        // .x/.y/.z/.w of threadIdx, dim3 and vector types are fixed too.
        const bool member = previous && previous->kind == TokenKind::Punct && source[previous->begin] == '.';
        const bool component =
            member && text.size() == 1 && std::string_view("xyzw").find(text[0]) != std::string_view::npos;
        symbol = is_fixed_name(text) || component ? fnv1a(text, kText) : fnv1a("", kName);
        break;
      }
      case TokenKind::Number: symbol = fnv1a("", kNumber); break;
      case TokenKind::String: symbol = fnv1a("", kString); break;
      case TokenKind::Char: symbol = fnv1a("", kChar); break;
      default: symbol = fnv1a(text, kText); break;
    }
    out.push_back({symbol, static_cast<std::uint32_t>(t.begin), static_cast<std::uint32_t>(t.end), t.line});
    previous = &t;
  }
  return out;
}

}  // namespace gpulab::similarity
