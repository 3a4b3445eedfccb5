// Waits of GPU threads on something other than a whole-block barrier or a
// warp collective: cuda::barrier phases, pipeline stages, the sync of a tile
// larger than a warp, and coalesced_threads() (which lanes of a warp reach a
// call together). The runtime parks the calling fiber; a parked thread that
// can never be woken is reported like barrier divergence (barrier-deadlock).
#pragma once

namespace gpulab::emu {

// Suspends the calling GPU thread until another thread of its block calls
// wake_parked(object). `what` names the call in a deadlock report.
void park(const void* object, const char* what, const char* file, int line);
void wake_parked(const void* object);

// The threads of a group have synchronised (a barrier phase completed): what
// each did before it arrived is visible to all of them afterwards, which the
// race check (--race-check) learns from this call.
void group_synchronised(const char* file, int line);

// The lanes of the calling warp that reach this call (this file and line)
// together: each lane waits until every other live lane of its warp is here
// or waits elsewhere, as a GPU's active mask holds the lanes that took the branch.
unsigned coalesced_lanes(const char* file, int line);

}  // namespace gpulab::emu
