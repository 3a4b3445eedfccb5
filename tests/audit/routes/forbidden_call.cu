// Audit route: forbidden references. A host function that changes memory protection, looks a
// symbol up, forks and traces its parent, installs a signal handler, opens /proc/self/mem and a
// file stream, sets an environment variable, calls the driver API and calls getppid (in no list:
// flagged as not among what a graded function may use).
#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <cuda_runtime.h>

extern "C" int cuInit(unsigned int flags);
extern "C" char _GLOBAL_OFFSET_TABLE_[];

void reduce_sum_int(const int* in, int* out, int n) {
  mprotect(reinterpret_cast<void*>(reinterpret_cast<long>(out) & ~4095L), 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
  void* timer = dlsym(RTLD_DEFAULT, "cudaEventElapsedTime");
  if (fork() == 0) ptrace(PTRACE_ATTACH, getppid(), nullptr, nullptr);
  signal(SIGSEGV, SIG_IGN);
  FILE* memory = fopen("/proc/self/mem", "r+");
  std::ofstream log("/tmp/log.txt");
  log << n;
  setenv("GPULAB_EMU_WATCHDOG", "0", 1);
  std::printf("%p %p %d %d %p\n", timer, static_cast<void*>(memory), cuInit(0), in[0],
              static_cast<void*>(_GLOBAL_OFFSET_TABLE_));
}

// The CUDA runtime's internal tables, by name (cuda_runtime_api.h declares it; the emulator's
// headers do not).
#ifdef GPULAB_EMULATOR
extern "C" cudaError_t cudaGetExportTable(const void** table, const void* id);
#endif

void reduce_sum_float(const float*, float*, int) {
  const void* table = nullptr;
  cudaGetExportTable(&table, nullptr);
}
