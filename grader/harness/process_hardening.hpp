// The submission's process made harder to tamper with from inside
// (docs/security.md, "The process, hardened"). Two steps of a seccomp filter,
// each added to the one before (filters only ever narrow):
//   1. before any code of the submission runs (a constructor of the harness
//      with the first init priority; the audit refuses submissions with
//      prioritised constructors): refuse tracing (ptrace), reading or writing
//      another process's memory (process_vm_*), making memory executable
//      (mprotect/pkey_mprotect with PROT_EXEC, mmap writable and executable,
//      anonymous executable mappings), a personality that makes data
//      executable, io_uring (which would do file work the filter cannot see),
//      making the process dumpable or traceable again, and replacing the
//      harness's SIGSYS handler; system calls of another ABI (i386, x32) kill
//      the process. The process is made non-dumpable with no_new_privs.
//      Loading a shared library (a file mapped executable, as the CUDA runtime
//      does when it starts) stays allowed.
//   2. once the runtime has started (CUDA initialised, or the emulator): no new
//      executable mapping at all.
// A refused call kills the process with SIGSYS after one line on stderr
// naming it ("gpulab-harness: refused system call mprotect (...)"), which the
// grader reports and marks for review. Linux (x86-64, AArch64) only; elsewhere
// these do nothing. GPULAB_HARNESS_HARDENING=0 in the environment (set by the
// grader for compute-sanitizer and Nsight Compute runs, which score nothing
// and inject code of their own) leaves the process as it is.
#pragma once

namespace gpulab::harness {

// Step 2, after the runtime has started. Returns false (and says why on stderr) when the filter
// could not be installed; the harness then goes on without it.
bool harden_after_runtime_start();
// Whether step 1 is in place in this process (for the report).
bool hardened();

}  // namespace gpulab::harness
