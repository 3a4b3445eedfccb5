// Counting kernel launches on the emulator: it counts them itself.
#include "gpulab/emu/kernel_launch.hpp"
#include "harness/launch_counter.hpp"

namespace gpulab::harness {
long long kernel_launches_so_far() { return static_cast<long long>(gpulab::emu::launch_count()); }
}  // namespace gpulab::harness
