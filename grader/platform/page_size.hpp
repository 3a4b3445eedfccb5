// The size of a memory page, the unit of every guard zone and mapping: 4 KiB on x86-64, 4, 16 or
// 64 KiB on AArch64 Linux (the kernel's choice), 16 KiB on Apple Silicon. Never assume 4096.
#pragma once
#include <cstddef>

namespace gpulab::platform {
size_t page_size();  // sysconf(_SC_PAGESIZE), read once
}  // namespace gpulab::platform
