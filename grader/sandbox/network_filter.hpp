// Network isolation without namespaces: a seccomp filter, installed in a
// sandboxed process just before it runs the submission (after no_new_privs),
// that refuses every socket but Unix-domain ones (EACCES) and io_uring (which
// could open sockets behind the filter's back), and kills a process that makes
// system calls through another architecture's table (i386, x32). Inherited by
// every process the submission starts; it cannot be removed.
#pragma once

namespace gpulab::sandbox {

// Async-signal-safe (between fork and exec). Returns false when the kernel refused the filter.
bool install_network_filter();

}  // namespace gpulab::sandbox
