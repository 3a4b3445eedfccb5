// printf from kernels: buffered per block and shown at the points where a GPU
// flushes its printf buffer (the next launch, synchronisation, blocking copies,
// exit), so a program prints the same lines in the same places on both backends.
#pragma once
#include <string>

namespace gpulab::emu {
void queue_device_output(std::string text);
void flush_device_output();
}  // namespace gpulab::emu
