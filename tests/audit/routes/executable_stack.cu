// Audit route: an executable stack and writable code. Namespace-scope assembly marks the stack
// note executable and adds a section that is writable and executable (code that can rewrite
// itself without mprotect).
#if defined(__x86_64__) || defined(__aarch64__)
asm(".section .note.GNU-stack,\"x\",%progbits\n"
    ".previous\n"
    ".section .audit_route_wx,\"awx\",%progbits\n"
    ".byte 0\n"
    ".previous\n");
#endif

void reduce_sum_int(const int*, int* out, int) { *out = 0; }
