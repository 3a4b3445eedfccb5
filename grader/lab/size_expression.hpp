// Arithmetic over a case's sizes, as lab.json writes it (a part's "performance" and the "bench" object):
// "2*m*n*k" (the operations of a matrix product), "mask_width*mask_width",
// "log2(n)". Numbers, size names, + - * /, parentheses and log2(x), which is
// ceil(log2(x)) and at least 1 (the depth of a balanced tree over x values,
// the shape the labs' float error bounds use).
#pragma once
#include <map>
#include <stdexcept>
#include <string>

namespace gpulab {

struct ExpressionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws ExpressionError naming the expression, the position and what is wrong
// (an unknown size name lists the known ones).
double evaluate_size_expression(const std::string& expression, const std::map<std::string, long long>& sizes);

}  // namespace gpulab
