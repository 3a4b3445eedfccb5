// Implementation of process_hardening.hpp: classic BPF seccomp programs written
// by hand. The harness is compiled on each grading machine (with nvcc on a GPU),
// where only the C library can be counted on, so libseccomp is not used; the
// programs are short and each rule is commented.
#include "harness/process_hardening.hpp"

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace gpulab::harness {
namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#else
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#endif
constexpr unsigned kX32Bit = 0x40000000;  // x86-64's x32 ABI: its numbers have this bit set

bool step_one_done = false;

// A filter under construction: a list of BPF instructions with jumps to "allow" and
// "refuse" resolved at the end.
class Filter {
 public:
  Filter() {
    // The architecture first: a call through another ABI's table (int 0x80, x32) is killed.
    load(offsetof(seccomp_data, arch));
    jump_unless_equal(kArch, kKill);
    load(offsetof(seccomp_data, nr));
#if defined(__x86_64__)
    code_.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, kX32Bit, 0, 1));
    code_.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
#endif
  }

  // Refuse every call of `nr`.
  void refuse(long nr) {
    on_nr(nr, [this] { ret(SECCOMP_RET_TRAP); });
  }
  // Refuse `nr` when (argument `arg` & mask) != 0.
  void refuse_if_any_bit(long nr, int arg, unsigned mask) {
    on_nr(nr, [&] {
      load_arg(arg);
      code_.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, mask, 0, 1));
      ret(SECCOMP_RET_TRAP);
      ret(SECCOMP_RET_ALLOW);
    });
  }
  // Refuse `nr` when argument `arg` is one of `values`; `action` is what refusing does. (One rule
  // per number: a rule's body decides, so a second rule for the same number would never be read.)
  void refuse_if_one_of(long nr, int arg, std::vector<unsigned> values, unsigned action = SECCOMP_RET_TRAP) {
    on_nr(nr, [&] {
      load_arg(arg);
      for (size_t i = 0; i < values.size(); ++i) {
        // equal: jump to the refusal after the remaining tests and the allow
        const auto to_refusal = static_cast<unsigned char>(values.size() - i);
        code_.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, values[i], to_refusal, 0));
      }
      ret(SECCOMP_RET_ALLOW);
      ret(action);
    });
  }
  // Refuse `nr` unless argument `arg` == value.
  void refuse_unless_equal(long nr, int arg, unsigned value) {
    on_nr(nr, [&] {
      load_arg(arg);
      code_.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1));
      ret(SECCOMP_RET_ALLOW);
      ret(SECCOMP_RET_TRAP);
    });
  }
  // mmap: refuse writable-and-executable, and (step 1) anonymous executable or (step 2) any executable.
  void refuse_executable_mmap(bool any) {
    on_nr(SYS_mmap, [&] {
      load_arg(2);  // prot
      code_.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 1, 0));
      ret(SECCOMP_RET_ALLOW);  // not executable
      if (any) {
        ret(SECCOMP_RET_TRAP);
        return;
      }
      code_.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_WRITE, 0, 1));
      ret(SECCOMP_RET_TRAP);  // writable and executable
      load_arg(3);            // flags
      code_.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_ANONYMOUS, 0, 1));
      ret(SECCOMP_RET_TRAP);  // executable memory that is no library's file
      ret(SECCOMP_RET_ALLOW);
    });
  }

  // Installs the program for every thread of the process.
  bool install(const char* step) {
    code_.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    const unsigned short kill_at = static_cast<unsigned short>(code_.size());
    code_.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    for (size_t i : kill_jumps_) code_[i].jf = static_cast<unsigned char>(kill_at - i - 1);
    sock_fprog prog{static_cast<unsigned short>(code_.size()), code_.data()};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0) {
      const char* why = std::strerror(errno);
      (void)!write(2, "gpulab-harness: the system-call filter (", 40);
      (void)!write(2, step, std::strlen(step));
      (void)!write(2, ") could not be installed: ", 26);
      (void)!write(2, why, std::strlen(why));
      (void)!write(2, "\n", 1);
      return false;
    }
    return true;
  }

 private:
  static constexpr int kKill = -1;
  void load(size_t offset) { code_.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<unsigned>(offset))); }
  void load_arg(int arg) {  // the low 32 bits (flags and protections live there)
    load(offsetof(seccomp_data, args) + static_cast<size_t>(arg) * sizeof(__u64));
  }
  void ret(unsigned action) { code_.push_back(BPF_STMT(BPF_RET | BPF_K, action)); }
  void jump_unless_equal(unsigned value, int /*kKill: the only target*/) {
    kill_jumps_.push_back(code_.size());
    code_.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 0));  // jf filled in by install
  }
  // if (nr == n) { body }: the body always returns, so what follows is reached with the number
  // still in the accumulator.
  template <class Body> void on_nr(long nr, Body body) {
    const size_t at = code_.size();
    code_.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), 0, 0));
    body();
    code_[at].jf = static_cast<unsigned char>(code_.size() - at - 1);
  }

  std::vector<sock_filter> code_;
  std::vector<size_t> kill_jumps_;
};

// The SIGSYS handler: one line naming the refused call, then the default action (the process
// ends with SIGSYS: SA_RESETHAND restored it, so no further sigaction is needed).
void on_refused(int, siginfo_t* info, void*) {
  char line[160] = "gpulab-harness: refused system call ";
  const char* name = "another";
  switch (info->si_syscall) {
    case SYS_ptrace: name = "ptrace (tracing a process)"; break;
    case SYS_process_vm_readv: name = "process_vm_readv (reading another process's memory)"; break;
    case SYS_process_vm_writev: name = "process_vm_writev (writing another process's memory)"; break;
    case SYS_mprotect: name = "mprotect (making memory executable)"; break;
    case SYS_pkey_mprotect: name = "pkey_mprotect (making memory executable)"; break;
    case SYS_mmap: name = "mmap (an executable mapping)"; break;
    case SYS_personality: name = "personality"; break;
    case SYS_prctl: name = "prctl (making the process dumpable or traceable)"; break;
    case SYS_io_uring_setup: name = "io_uring_setup"; break;
    case SYS_remap_file_pages: name = "remap_file_pages"; break;
    default: break;
  }
  std::strncat(line, name, sizeof line - std::strlen(line) - 2);
  std::strcat(line, "\n");
  (void)!write(2, line, std::strlen(line));
  raise(SIGSYS);
}

bool disabled() {
  const char* v = std::getenv("GPULAB_HARNESS_HARDENING");
  return v && std::strcmp(v, "0") == 0;
}

// Step 1, before any constructor of the submission: priority 101 runs first among all
// prioritised and plain constructors of the program (the audit refuses a submission's own
// priorities), after the shared libraries' own initialisation.
__attribute__((constructor(101))) void harden_before_submission() {
  if (disabled()) return;
  struct sigaction sa {};
  sa.sa_sigaction = on_refused;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigaction(SIGSYS, &sa, nullptr);
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  Filter f;
  f.refuse(SYS_ptrace);
  f.refuse(SYS_process_vm_readv);
  f.refuse(SYS_process_vm_writev);
  f.refuse(SYS_remap_file_pages);
  f.refuse(SYS_io_uring_setup);
  f.refuse(SYS_io_uring_enter);
  f.refuse(SYS_io_uring_register);
  f.refuse_if_any_bit(SYS_mprotect, 2, PROT_EXEC);
  f.refuse_if_any_bit(SYS_pkey_mprotect, 2, PROT_EXEC);
  f.refuse_executable_mmap(false);
  // personality(0xffffffff) only asks; anything else may make reads imply execution.
  f.refuse_unless_equal(SYS_personality, 0, 0xffffffffu);
  f.refuse_if_one_of(SYS_prctl, 0, {PR_SET_DUMPABLE, PR_SET_PTRACER, PR_SET_MM});
  // The harness's SIGSYS handler stays: setting another one kills.
  f.refuse_if_one_of(SYS_rt_sigaction, 0, {SIGSYS}, SECCOMP_RET_KILL_PROCESS);
  step_one_done = f.install("before the submission's code");
}
}  // namespace

bool harden_after_runtime_start() {
  if (disabled() || !step_one_done) return false;
  Filter f;
  f.refuse_executable_mmap(true);
  return f.install("after the runtime started");
}

bool hardened() { return step_one_done; }

}  // namespace gpulab::harness

#else  // not Linux on x86-64 or AArch64: no seccomp

namespace gpulab::harness {
bool harden_after_runtime_start() { return false; }
bool hardened() { return false; }
}  // namespace gpulab::harness

#endif
