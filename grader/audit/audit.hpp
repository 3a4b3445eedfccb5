// The audit of a submission's object before it is linked with the harness (grader/audit/README.md):
// what it defines that would replace the harness's, a runtime's or the system's functions; what
// it refers to that a graded function has no use for (grader/audit/allowed_calls.json, one
// reviewed list); host-side inline assembly and system-call instructions; code that runs before
// or after main; an executable stack. The harness runs in the submission's process, so each of
// these could change what the harness measures or reports. And the library calls that compute the
// lab's answer (cub::DeviceReduce::Sum in the reduction lab), which earn no points the lab gives
// for writing the kernel.
#pragma once
#include <filesystem>
#include <vector>

#include "audit/finding.hpp"
#include "audit/library_algorithms.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::audit {

struct AuditResult {
  std::vector<Finding> findings;
  double seconds = 0;  // what the audit cost (wall clock)
};

// `object`: the submission's relocatable object, compiled alone from its source (emulator: the
// rewritten .cu compiled with g++ -c against the emulator's headers, as toolchain::build_program
// with object_file = true does; cuda: nvcc -c, host code and fatbinary).
// `source`: emulator: the rewritten source the object was compiled from (beside the object in its
// build folder); cuda: the .cu. It is read for host-side inline assembly (source_scan.hpp).
// `run_compiler`: cuda only, and only when the source holds an asm statement: runs nvcc -cuda to
// tell host asm from device asm (a sandbox, as for the submission's own compile); unset, directly.
// `cuda_arch`: the architecture the object was built for (device code may need it to compile).
// `library`: the lab's library algorithms (lab.json's "library_algorithms"): each one the object
// holds is a finding of kind library_algorithm; none given, none is looked for.
// Throws files::GraderError when the audit itself cannot run (binutils missing, a protected
// library unreadable, a malformed allowed_calls.json).
AuditResult audit_object(const std::filesystem::path& object, toolchain::Backend backend,
                         const std::filesystem::path& source, const toolchain::CompileRunner& run_compiler = {},
                         const std::string& cuda_arch = "sm_90", const LibraryRules& library = {});

}  // namespace gpulab::audit
