// Replays of repeated launches. Programs time a kernel by launching it many times on the same
// data (cuda-samples run each of their kernels 100 times; a multi-level scan repeats its three
// launches per size): on a GPU each launch takes milliseconds, here seconds. A launch whose
// kernel, arguments and configuration equal an earlier launch's, and which finds the device in
// the same state that earlier launch found it in, leaves the device as that launch left it: the
// emulator then applies the bytes that launch changed instead of running it again.
//
// What counts as the device's state: every live device allocation (cudaMalloc, managed, pools),
// every page-locked host range, and the program's own writable variables (user_globals.hpp), each
// by a 128-bit digest of its bytes (device-only allocations' digests are kept while the runtime
// has not looked a device address up since, which it does before every copy or memset). A launch is
// recorded only if it ran clean (no error, no diagnostic) and pure: no device printf, malloc or
// free, clock, %globaltimer or nanosleep (note_impure_launch), whose results a replay could not
// give again. Its arguments may not point into memory outside that state (host memory from
// malloc); only arguments that can hold an address are read for that (pointers, 8-byte integers,
// classes; not an int, an enum or a float: kernel_launch.hpp's may_hold_address_v). Launches are watched only once their signature repeats, up to GPULAB_EMU_REPLAY_MB
// (512) MiB of state; GPULAB_EMU_REPLAY=0 turns replays off. The checking build (race check,
// profile) never replays: it must see every access.
#pragma once
#include "launch_state.hpp"

namespace gpulab::emu {

class LaunchReplay;

// Before a launch runs: true when it was replayed (its effect is applied; do not run it). Else
// `watch` is set when the launch is to be recorded, and replay_finish must follow its run.
bool replay_launch(const LaunchState& launch, bool& watch);
// After a watched launch ran; `clean`: no error, no diagnostic, no guard violation.
void replay_finish(const LaunchState& launch, bool clean);
// After a launch ran that was not watched: what it wrote is unknown.
void replay_forget_device_state();

// Called by device code whose result a replay could not reproduce (printf, device malloc/free,
// clock reads, %globaltimer, __nanosleep): the running launch is never recorded.
void note_impure_launch();

// Launches replayed so far (for tests and the performance notes).
unsigned long long replayed_launches();

}  // namespace gpulab::emu
