// What root does on behalf of, or about, another (unprivileged) user, for
// isolation without namespaces: which paths that user can reach, ending every
// process it runs, and removing what it left in the shared temporary folders.
// Each forks a short-lived child that takes on the user's identity, so the
// kernel's own permission checks give the answers.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <vector>

namespace gpulab::sandbox {

// The paths (of `paths`) that `uid`/`gid` can read (a file's contents, a folder's list) or, for
// folders, enter.
std::vector<std::filesystem::path> reachable_by(uid_t uid, gid_t gid, const std::vector<std::filesystem::path>& paths);

// Sends SIGKILL to every process of `uid` until none is left alive (or a second has passed);
// returns how many rounds found live processes (0: there were none).
int kill_every_process_of(uid_t uid, gid_t gid);

// Waits for (reaps) the ended processes of `uid` whose parent is now this process: gpulab is
// their subreaper (PR_SET_CHILD_SUBREAPER), so a run's orphans come back to it instead of to a
// container's init, which may never reap them; unreaped, they would count against the next
// run's process limit. Gives up after about a second; returns how many were reaped.
int reap_orphans_of(uid_t uid);

// Removes the top-level entries of /tmp, /var/tmp and /dev/shm that `uid` owns (what a run left
// there, outside its own folders). Returns how many were removed.
int remove_files_of(uid_t uid);

}  // namespace gpulab::sandbox
