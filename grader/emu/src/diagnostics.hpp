// Diagnostics: what the emulator found wrong with a kernel (barrier
// divergence, out-of-bounds access, deadlocked warp, ...), printed for the
// student, kept for tests, and written as JSON lines to $GPULAB_EMU_REPORT
// for the grader. Also the CUDA error state (last error, sticky error).
#pragma once
#include <string>
#include <vector>

#include "gpulab/emu/diagnostics_api.hpp"
#include "gpulab/emu/runtime_types.hpp"

namespace gpulab::emu {

// Records and prints a diagnostic. Thread-safe. A kernel's error (`sticky`)
// becomes visible as on a GPU, asynchronously: at the next synchronising call.
void report(Diagnostic diagnostic, cudaError_t sticky = cudaSuccess);

// A runtime call refused for misuse: reports "API failed: WHAT (CODE)." as an
// api-misuse error and sets (and returns) `code` as the last error.
cudaError_t refuse_call(const char* api, cudaError_t code, const std::string& what);

// The CUDA error state shared by every runtime call.
cudaError_t set_last_error(cudaError_t error);  // returns `error`
cudaError_t sticky_error();
cudaError_t synchronize_errors();
bool device_failed();  // a kernel failed (seen by a synchronising call or not yet)  // a synchronising call: kernel errors so far become sticky; returns it
cudaError_t take_last_error();  // cudaGetLastError
cudaError_t peek_last_error();  // cudaPeekAtLastError
void reset_error_state();       // cudaDeviceReset

// "0-31, 64, 70-95": a compact list of thread ranks.
std::string format_ranks(const std::vector<unsigned>& ranks);
std::string format_index(unsigned x, unsigned y, unsigned z);

}  // namespace gpulab::emu
