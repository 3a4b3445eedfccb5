// A source file as the similarity check sees it: the tokens of the project's CUDA lexer with
// everything a copier can change for free taken out. Comments, whitespace and preprocessor lines are
// dropped; every name the student chose (variables, functions, types, template parameters) becomes
// the same symbol, and so does every number, every string and every character literal. C++ keywords
// and the names CUDA gives (threadIdx, __syncthreads, atomicAdd, cudaMalloc, ...) keep their text:
// renaming cannot change them, and they tell kernels apart.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace gpulab::similarity {

struct NormalisedToken {
  std::uint64_t symbol;  // hash of the normalised text: equal for tokens a renaming can turn into each other
  std::uint32_t begin;   // byte range of the token in the source, for highlighting
  std::uint32_t end;
  std::int32_t line;  // 1-based line of the token's first byte
};

// Never fails: any bytes (invalid UTF-8, unterminated literals, binary data) give some token stream.
std::vector<NormalisedToken> normalise(std::string_view source);

// True for identifiers that keep their text (keywords and CUDA's own names).
bool is_fixed_name(std::string_view identifier);

}  // namespace gpulab::similarity
