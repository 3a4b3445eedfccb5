// What a policy lets a process see, copied into a folder for isolation
// without mount namespaces (user_sandbox.hpp). Under `<top>/root`, every file
// and folder the policy binds is mirrored at its own absolute path: read-only
// binds as root-owned hard links or copies the sandbox's user may read but not
// change, writable binds as folders that user owns, holding a copy of what the
// grader put there. Paths in the command, the environment, the working folder
// and the JSON requests the grader wrote into a writable folder are moved
// under the mirror; after the run, what the process left in its writable
// folders is copied back (folders and plain files; symbolic links and special
// files recreated as such, never followed, so the grader's own checks see
// them) and the mirror's prefix is taken out of the text again. System binds
// (optional ones) are not copied: without namespaces the system is visible.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sandbox_policy.hpp"

namespace gpulab::sandbox {

class Jail {
 public:
  // `top`: an empty folder owned by the grader (root); made enterable, not listable, by others.
  Jail(const std::filesystem::path& top, uid_t uid, gid_t gid);

  // Mirrors the policy's binds. Throws std::runtime_error naming the file that could not be staged.
  void stage(const SandboxPolicy& policy);
  // The policy as the process sees it: command, environment and working folder translated,
  // TMPDIR the run's own folder (owned by the user).
  SandboxPolicy translated(const SandboxPolicy& policy) const;
  // `path` under the mirror when it names a staged file or folder (or lies inside one); as is otherwise.
  std::string inside(const std::string& path) const;
  // Copies back what the process left in the writable folders (at most `max_entries` entries;
  // returns a note when there were more, "" otherwise).
  std::string copy_back(size_t max_entries = 10000) const;
  // `text` with the mirror's prefix removed (compiler messages, program output).
  std::string outside(std::string text) const;

  const std::filesystem::path& mirror() const { return root_; }
  const std::filesystem::path& tmp() const { return tmp_; }

 private:
  bool staged_ancestor(const std::filesystem::path& p) const;
  std::filesystem::path top_, root_, tmp_;
  uid_t uid_;
  gid_t gid_;
  std::vector<std::filesystem::path> staged_;    // sources, lexically normal
  std::vector<std::filesystem::path> writable_;  // the writable ones
};

}  // namespace gpulab::sandbox
