// Prints what the CUDA runtime answers to invalid launches and calls, one line
// per case. Run on a GPU, its output is recorded in expected/; CI runs the same
// file on the emulator and requires the same lines, so the emulator returns
// CUDA 13's codes rather than what older documentation says.
#include <cstdio>
#include <cstdlib>

__global__ void mark(int* flag) { *flag = 1; }
__global__ void dynamic_shared_user(int* flag) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = 1;
  if (threadIdx.x == 0) *flag = scratch[0];
}
__global__ void write_through_null(int* a) { a[threadIdx.x] = 7; }

__constant__ float mask[5];

static void line(const char* what, cudaError_t e) {
  std::printf("%-34s %3d %-32s %s\n", what, static_cast<int>(e), cudaGetErrorName(e), cudaGetErrorString(e));
  std::fflush(stdout);
}

static void launch_case(const char* what, dim3 grid, dim3 block, size_t smem, int* flag) {
  cudaMemset(flag, 0, sizeof(int));
  if (smem) {
    dynamic_shared_user<<<grid, block, smem>>>(flag);
  } else {
    mark<<<grid, block>>>(flag);
  }
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t again = cudaGetLastError();
  cudaDeviceSynchronize();
  int ran = 0;
  cudaMemcpy(&ran, flag, sizeof(int), cudaMemcpyDeviceToHost);
  line(what, launch);
  std::printf("%-34s %s, next cudaGetLastError %d\n", "", ran ? "kernel ran" : "kernel did not run",
              static_cast<int>(again));
}

int main() {
  int* flag = nullptr;
  line("cudaMalloc flag", cudaMalloc(&flag, sizeof(int)));
  launch_case("launch ok <<<1,1>>>", dim3(1), dim3(1), 0, flag);
  launch_case("launch 2048 threads", dim3(1), dim3(2048), 0, flag);
  launch_case("launch block (1025,1,1)", dim3(1), dim3(1025), 0, flag);
  launch_case("launch block (1,1,65)", dim3(1), dim3(1, 1, 65), 0, flag);
  launch_case("launch block (0,1,1)", dim3(1), dim3(0), 0, flag);
  launch_case("launch grid (0,1,1)", dim3(0), dim3(32), 0, flag);
  launch_case("launch grid (1,65536,1)", dim3(1, 65536), dim3(1), 0, flag);
  launch_case("launch grid (1,1,65536)", dim3(1, 1, 65536), dim3(1), 0, flag);
  launch_case("launch dyn smem 48 KiB", dim3(1), dim3(32), 48 * 1024, flag);
  launch_case("launch dyn smem 48 KiB + 4", dim3(1), dim3(32), 48 * 1024 + 4, flag);
  launch_case("launch dyn smem 300000", dim3(1), dim3(32), 300000, flag);

  void* zero = reinterpret_cast<void*>(1);
  line("cudaMalloc 0 bytes", cudaMalloc(&zero, 0));
  std::printf("%-34s %s\n", "", zero == nullptr ? "pointer is null" : "pointer is not null");
  int* buf = nullptr;
  cudaMalloc(&buf, 1024);
  int host[512] = {};
  line("cudaMemcpy H2D past end", cudaMemcpy(buf, host, 2048, cudaMemcpyHostToDevice));
  line("cudaGetLastError after that", cudaGetLastError());
  line("cudaMemset past end", cudaMemset(buf, 0, 2048));
  line("cudaGetLastError after that", cudaGetLastError());
  line("cudaMemcpyToSymbol too large", cudaMemcpyToSymbol(mask, host, 6 * sizeof(float)));
  line("cudaGetLastError after that", cudaGetLastError());
  line("cudaMemcpyToSymbol ok", cudaMemcpyToSymbol(mask, host, 5 * sizeof(float)));
  line("cudaFree(nullptr)", cudaFree(nullptr));
  line("cudaFree(buf)", cudaFree(buf));
  line("cudaFree(buf) again", cudaFree(buf));
  line("cudaGetLastError after that", cudaGetLastError());

  cudaEvent_t a, b, untimed;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming);
  float ms = 0;
  line("cudaEventElapsedTime unrecorded", cudaEventElapsedTime(&ms, a, b));
  line("cudaGetLastError after that", cudaGetLastError());
  cudaEventRecord(a);
  cudaEventRecord(b);
  cudaEventRecord(untimed);
  cudaEventSynchronize(b);
  line("cudaEventElapsedTime recorded", cudaEventElapsedTime(&ms, a, b));
  line("cudaEventElapsedTime no timing", cudaEventElapsedTime(&ms, a, untimed));
  line("cudaGetLastError after that", cudaGetLastError());

  const int codes[] = {0, 1, 2, 9, 13, 17, 21, 98, 101, 400, 600, 700, 701, 702, 710, 716, 719, 999};
  for (int c : codes) line("error code", static_cast<cudaError_t>(c));

  write_through_null<<<1, 1>>>(nullptr);
  line("null write: launch", cudaGetLastError());
  line("null write: synchronize", cudaDeviceSynchronize());
  line("then cudaGetLastError", cudaGetLastError());
  line("then cudaGetLastError again", cudaGetLastError());
  line("then cudaMalloc", cudaMalloc(&buf, 16));
  line("then cudaDeviceReset", cudaDeviceReset());
  return 0;
}
