// Quoting an argument for a bash script that gpulab writes (the sbatch scripts of a Slurm
// class, the settings file of a Gradescope or PrairieLearn package).
#pragma once
#include <string>

namespace gpulab::process {

std::string shell_quote(const std::string& text);  // '...' for bash; a ' inside becomes '\''

}  // namespace gpulab::process
