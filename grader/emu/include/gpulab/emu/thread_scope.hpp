// cuda::thread_scope (libcu++): which threads an atomic, barrier or pipeline
// synchronises. On the emulator only the block and thread scopes have a
// synchronisation object (cuda::barrier, cuda::pipeline); the names are here
// so that code naming the others compiles.
#pragma once

namespace cuda {
namespace std {
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };
}  // namespace std
using std::thread_scope;
using std::thread_scope_block;
using std::thread_scope_device;
using std::thread_scope_system;
using std::thread_scope_thread;
}  // namespace cuda
