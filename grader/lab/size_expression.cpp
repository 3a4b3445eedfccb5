// A small recursive-descent evaluator for size expressions.
#include "size_expression.hpp"

#include <cctype>
#include <cmath>

namespace gpulab {
namespace {

class Parser {
 public:
  Parser(const std::string& text, const std::map<std::string, long long>& sizes) : s_(text), sizes_(sizes) {}

  double parse() {
    const double v = sum();
    skip_space();
    if (pos_ != s_.size()) fail("unexpected '" + s_.substr(pos_, 1) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ExpressionError("size expression '" + s_ + "', at character " + std::to_string(pos_ + 1) + ": " + what);
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  double sum() {
    double v = product();
    for (;;) {
      if (eat('+')) v += product();
      else if (eat('-')) v -= product();
      else return v;
    }
  }
  double product() {
    double v = factor();
    for (;;) {
      if (eat('*')) {
        v *= factor();
      } else if (eat('/')) {
        const double d = factor();
        if (d == 0) fail("division by zero");
        v /= d;
      } else {
        return v;
      }
    }
  }
  double factor() {
    skip_space();
    if (pos_ >= s_.size()) fail("the expression ends too early");
    if (eat('(')) {
      const double v = sum();
      if (!eat(')')) fail("missing ')'");
      return v;
    }
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      size_t used = 0;
      const double v = std::stod(s_.substr(pos_), &used);
      pos_ += used;
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      const std::string name = s_.substr(start, pos_ - start);
      if (name == "log2") {
        if (!eat('(')) fail("log2 needs parentheses: log2(n)");
        const double x = sum();
        if (!eat(')')) fail("missing ')' after log2(...");
        return x <= 2 ? 1.0 : std::ceil(std::log2(x));
      }
      const auto it = sizes_.find(name);
      if (it == sizes_.end()) {
        std::string known;
        for (const auto& [k, v] : sizes_) known += (known.empty() ? "" : ", ") + k;
        pos_ = start;
        fail("unknown size '" + name + "' (this part's sizes: " + (known.empty() ? "none" : known) + ")");
      }
      return static_cast<double>(it->second);
    }
    fail(std::string("unexpected '") + c + "'");
  }

  const std::string& s_;
  const std::map<std::string, long long>& sizes_;
  size_t pos_ = 0;
};

}  // namespace

double evaluate_size_expression(const std::string& expression, const std::map<std::string, long long>& sizes) {
  return Parser(expression, sizes).parse();
}

}  // namespace gpulab
