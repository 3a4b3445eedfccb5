// What the audit of a submission's object reports: one finding per thing a graded function has
// no use for, each with the symbol, a sentence for the student and where in the source it is.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace gpulab::audit {

enum class FindingKind {
  interposition,        // defines a symbol of the harness, a runtime or a system library
  forbidden_call,       // refers to something a graded function may not use (denied, or not allowed)
  harness_reference,    // refers to the grader's own harness, or to the emulator's internals
  raw_system_call,      // a system call without the C library: syscall(), a syscall instruction
  inline_assembly,      // host-side inline assembly
  early_constructor,    // code that runs before or after main: constructors, init sections, IFUNC
  executable_stack,     // asks for an executable stack
  library_algorithm,    // a library call that computes the lab's answer (lab.json's "library_algorithms")
  host_visible_memory,  // memory a kernel writes and the host reads with no copy (managed, page-locked,
                        // registered), which a lab's graded functions do not use unless lab.json's
                        // host_work allows it (the grader drops the finding then)
  other,                // anything else that makes the object unsafe to link (writable code)
};

struct Finding {
  FindingKind kind = FindingKind::other;
  std::string symbol;    // what was found: a symbol (demangled), an instruction, a section
  std::string sentence;  // for the student: "calls mprotect, which changes memory protection; ..."
  std::string where;     // "file.cu:12" where the debug info says it, else "in function f" or a section
};

// "interposition", "forbidden_call", ...: the names above.
const char* kind_name(FindingKind kind);
std::optional<FindingKind> parse_kind(const std::string& name);

}  // namespace gpulab::audit
