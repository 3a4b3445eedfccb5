// The table `gpulab bench` prints: one row per case and implementation with
// the median time, the achieved GB/s (inputs read + outputs written) or
// GFLOP/s, the ratio to the library baseline measured in the same run, and
// whether the output matched the checker's. Text for a terminal, Markdown for
// docs/performance.md.
#pragma once
#include <string>

#include "bench/bench_run.hpp"

namespace gpulab::bench {

// `command` and `date` go into the header lines.
std::string format_bench_table(const BenchReport& report, bool markdown, const std::string& command,
                               const std::string& date);

// True when every checked row passed and nothing failed to run.
bool bench_all_correct(const BenchReport& report);

// "n=2^28", "m=4096 n=4096 k=4096": powers of two from 2^20 up as powers.
std::string format_sizes(const std::map<std::string, long long>& sizes, const std::vector<std::string>& order);

}  // namespace gpulab::bench
