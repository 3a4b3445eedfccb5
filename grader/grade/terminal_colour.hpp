// Whether a report printed to a stream is coloured: only on a terminal, and never where NO_COLOR
// is set to anything but the empty string (https://no-color.org). Files, pipes and the tests get
// plain text.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace gpulab::grade {

inline bool colour_wanted(bool terminal, const char* no_color) {
  return terminal && (no_color == nullptr || *no_color == '\0');
}

inline bool colour_wanted(std::FILE* stream) {
  return colour_wanted(isatty(fileno(stream)) != 0, std::getenv("NO_COLOR"));
}

}  // namespace gpulab::grade
