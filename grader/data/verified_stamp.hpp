// A record that a dataset folder's files were checked against their manifest's SHA-256: each
// file's device, inode, size and change time (ctime, which every write to a file, and every
// change of its times, moves on; no program can set it back). A folder whose files still have
// the recorded stamps holds the bytes that were hashed, so a grader reading a cached dataset
// again need not hash gigabytes each time; any change makes it hash them again.
#pragma once
#include <filesystem>

#include "dataset.hpp"

namespace gpulab {

// Reads DIR/manifest.json and checks every file as read_manifest(dir, true) does, unless DIR
// holds a stamp (written by an earlier check) that every file still matches; writes the stamp
// after a check. DatasetError as read_manifest's.
Manifest read_manifest_verified_once(const std::filesystem::path& dir);

}  // namespace gpulab
