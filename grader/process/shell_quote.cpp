// shell_quote: single quotes, each inner quote closed, escaped and reopened.
#include "shell_quote.hpp"

namespace gpulab::process {

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace gpulab::process
