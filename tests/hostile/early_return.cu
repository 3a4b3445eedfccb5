// Hostile: returns before its work is done. The host function marks the
// output and returns; a detached thread launches the real kernel later, after
// the harness has synchronised and checked. Expected: the output is checked
// as it is when the function has returned and the device is synchronised.
#include <chrono>
#include <thread>

#include "hostile_common.cuh"

void reduce_sum_int(const int* in, int* out, int n) {
  hostile_wrong_int(out);
  std::thread([=] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    cudaMemset(out, 0, sizeof(int));
    hostile_correct_int(in, out, n);
  }).detach();
}
