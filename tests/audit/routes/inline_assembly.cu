// Audit route: host-side inline assembly at namespace scope (a function written in assembly),
// which both the emulator and nvcc compile as host code. Its instructions are harmless: the
// assembly itself is the finding.
#if defined(__x86_64__)
asm(".text\n.globl audit_route_tsc\n.type audit_route_tsc, @function\naudit_route_tsc:\n  rdtsc\n  ret\n");
#elif defined(__aarch64__)
asm(".text\n.globl audit_route_tsc\n.type audit_route_tsc, %function\naudit_route_tsc:\n  mrs x0, cntvct_el0\n  ret\n");
#endif

// Empty templates hold no instruction (a compiler barrier) and are not flagged.
inline void barrier() { asm volatile("" ::: "memory"); }

void reduce_sum_int(const int*, int* out, int) {
  barrier();
  *out = 0;
}
