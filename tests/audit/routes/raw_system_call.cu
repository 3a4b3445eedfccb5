// Audit route: raw system calls. The C library's syscall() and, in namespace-scope assembly,
// the system-call, interrupt, far-return and protection-key instructions (found by disassembling
// the object; the assembly itself is also flagged as inline assembly).
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
asm(".text\n"
    ".globl audit_route_raw\n"
    ".type audit_route_raw, @function\n"
    "audit_route_raw:\n"
    "  syscall\n"
    "  int $0x80\n"
    "  sysenter\n"
    "  wrpkru\n"
    "  lretq\n");
#elif defined(__aarch64__)
asm(".text\n"
    ".globl audit_route_raw\n"
    ".type audit_route_raw, %function\n"
    "audit_route_raw:\n"
    "  svc #0\n"
    "  ret\n");
#endif

void reduce_sum_int(const int*, int* out, int) { *out = static_cast<int>(syscall(SYS_getpid)); }
