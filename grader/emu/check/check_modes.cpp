// GPULAB_EMU_CHECKS (see check_modes.hpp).
#include "check_modes.hpp"

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <string>

namespace gpulab::emu::check {

CheckModes modes;

CheckModes modes_from_environment() {
  const char* value = std::getenv("GPULAB_EMU_CHECKS");
  if (!value || !*value) return CheckModes{};
  CheckModes m{false, false};
  std::string list = value;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t end = std::min(list.find(',', start), list.size());
    const std::string word = list.substr(start, end - start);
    if (word == "race") m.race = true;
    else if (word == "profile") m.profile = true;
    else if (!word.empty())
      std::fprintf(stderr,
                   "gpulab-emu: warning: GPULAB_EMU_CHECKS names '%s', which is not a check "
                   "(the checks are race and profile); ignored\n",
                   word.c_str());
    start = end + 1;
  }
  return m;
}

}  // namespace gpulab::emu::check
