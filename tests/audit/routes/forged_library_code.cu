// Audit route: a function named like NVTX's own initialisation, which allowed_calls.json trusts
// by its name to call dlopen and dlsym (only_from): the name in the program's own file is flagged,
// as an identifier or as the string of an asm label, whatever the object then shows. A weak copy of a C++ library function that libstdc++ defines
// strongly (the steady clock the harness could time with) is interposition.
#include <dlfcn.h>

#include <chrono>

__attribute__((noinline)) inline void* nvtxForged_impl_init_v3() { return dlsym(RTLD_DEFAULT, "clock_gettime"); }
extern "C" __attribute__((noinline)) inline void* labelled() asm("nvtxLabelled_impl_init_v3");
extern "C" inline void* labelled() { return dlsym(RTLD_DEFAULT, "mprotect"); }

namespace std::chrono::_V2 {
__attribute__((weak)) steady_clock::time_point steady_clock::now() noexcept { return time_point(duration(0)); }
}  // namespace std::chrono::_V2

void reduce_sum_int(const int*, int* out, int) {
  *out = nvtxForged_impl_init_v3() != nullptr && labelled() != nullptr;
  *out += static_cast<int>(std::chrono::steady_clock::now().time_since_epoch().count());
}
