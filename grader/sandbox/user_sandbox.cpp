// UserSandbox: the checks before grading, and each run as the other user.
#include "user_sandbox.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>

#include "bwrap_sandbox.hpp"
#include "files/temp_folder.hpp"
#include "jail.hpp"
#include "network_filter.hpp"
#include "other_user.hpp"
#include "process/interruption.hpp"

namespace gpulab::sandbox {
namespace fs = std::filesystem;
namespace {
// A root-only folder for the lock (not /tmp, where the user could make the file first).
fs::path lock_folder() {
  for (const char* dir : {"/run/gpulab", "/var/lib/gpulab"}) {
    mkdir(dir, 0700);
    struct stat st {};
    if (lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 && (st.st_mode & 0022) == 0) return dir;
  }
  return {};
}

// Held for one run: an flock on the user's lock file (released when the descriptor closes).
class RunLock {
 public:
  explicit RunLock(const fs::path& file) {
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd_ < 0) return;
    while (flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) break;
      process::throw_if_interrupted();
    }
  }
  ~RunLock() {
    if (fd_ >= 0) close(fd_);
  }
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// The paths to check: each private path, where it really is, and where the links in it lead
// (a GPULAB_HOME made of links to the project's folders is only as private as they are).
std::vector<std::pair<fs::path, std::string>> paths_to_check(const std::vector<PrivatePath>& private_paths) {
  std::vector<std::pair<fs::path, std::string>> out;
  std::set<fs::path> seen;
  auto add = [&](const fs::path& p, const std::string& what) {
    if (!p.empty() && seen.insert(p).second) out.push_back({p, what});
  };
  for (const PrivatePath& pp : private_paths) {
    std::error_code ec;
    if (!fs::exists(pp.path, ec)) continue;
    add(pp.path, pp.what);
    const fs::path real = fs::canonical(pp.path, ec);
    if (!ec) add(real, pp.what);
    if (!fs::is_directory(pp.path, ec)) continue;
    for (const fs::directory_entry& e : fs::directory_iterator(pp.path, ec)) {
      if (!e.is_symlink(ec)) continue;
      std::error_code ec2;
      const fs::path target = fs::canonical(e.path(), ec2);
      if (!ec2) add(target, pp.what + ": " + e.path().filename().string() + " leads there");
    }
  }
  return out;
}
}  // namespace

std::string sandbox_user_name() {
  const char* env = std::getenv("GPULAB_SANDBOX_USER");
  return env && *env ? env : "gpulab-sandbox";
}

std::unique_ptr<UserSandbox> UserSandbox::open(const std::vector<PrivatePath>& private_paths) {
  std::unique_ptr<UserSandbox> box(new UserSandbox());
  box->user_ = sandbox_user_name();
  const std::string intro = "isolation as an unprivileged user (--sandbox user) cannot start: ";
  if (geteuid() != 0) {
    throw SandboxUnavailable(intro + "gpulab must run as root to switch to the user '" + box->user_ +
                             "' for every run (Gradescope runs the autograder as root).\n" + kHowToProceed);
  }
  const passwd* pw = getpwnam(box->user_.c_str());
  if (!pw) {
    throw SandboxUnavailable(intro + "the user '" + box->user_ +
                             "', which submissions run as, does not exist. "
                             "Create it: `useradd --system --user-group --no-create-home --shell /usr/sbin/nologin " +
                             box->user_ +
                             "` (the Gradescope bundle's setup.sh does), or name another user that "
                             "runs nothing else in GPULAB_SANDBOX_USER.\n" +
                             kHowToProceed);
  }
  box->uid_ = pw->pw_uid;
  box->gid_ = pw->pw_gid;
  if (box->uid_ == 0 || box->gid_ == 0) {
    throw SandboxUnavailable(intro + "the user '" + box->user_ +
                             "' has user or group ID 0 (root's); name an "
                             "unprivileged user in GPULAB_SANDBOX_USER.\n" +
                             kHowToProceed);
  }
  const fs::path locks = lock_folder();
  if (locks.empty()) {
    throw SandboxUnavailable(intro +
                             "neither /run/gpulab nor /var/lib/gpulab can be made a folder only root may "
                             "write (for the lock that keeps the user's runs apart).\n" +
                             kHowToProceed);
  }
  box->lock_ = locks / ("sandbox-user-" + std::to_string(box->uid_) + ".lock");
  // The runs' orphans come back to gpulab, which reaps them (other_user.hpp: reap_orphans_of).
  prctl(PR_SET_CHILD_SUBREAPER, 1);

  // What the submission must not reach.
  const auto checks = paths_to_check(private_paths);
  std::vector<fs::path> paths;
  for (const auto& c : checks) paths.push_back(c.first);
  const std::vector<fs::path> open_ones = reachable_by(box->uid_, box->gid_, paths);
  if (!open_ones.empty()) {
    std::string list;
    for (const auto& [p, what] : checks) {
      for (const fs::path& o : open_ones)
        if (o == p) list += "  - " + p.string() + " (" + what + ")\n";
    }
    throw SandboxUnavailable(intro + "the user '" + box->user_ + "' can reach what a submission must not see:\n" +
                             list +
                             "Make each private to root, e.g. `chmod 700` on the folder that holds it (the "
                             "Gradescope bundle's scripts do `chmod 700 /autograder`); a folder of links must also "
                             "have private targets.");
  }

  // The probe: a run with real limits writes one file into a folder handed to it.
  const files::TempFolder check("sandbox-check");
  SandboxPolicy policy = compile_policy({}, check.path(), {});
  policy.command = {"/bin/sh", "-c", "echo ok > probe"};
  const process::ProcessResult r = box->run(policy, resolve({}, false, 1, 1), 30, false);
  std::error_code ec;
  if (!r.started()) throw SandboxUnavailable(intro + r.spawn_error + "\n" + kHowToProceed);
  if (r.status() != 0 || !fs::exists(check.path() / "probe", ec)) {
    throw SandboxUnavailable(intro + "a probe run as '" + box->user_ + "' exited with status " +
                             std::to_string(r.status()) + " and said: " + (r.output.empty() ? "(nothing)" : r.output) +
                             "\n" + kHowToProceed);
  }
  return box;
}

process::ProcessResult UserSandbox::run(SandboxPolicy policy, const ResolvedLimits& limits, double wall_s,
                                        bool stop_at_output_cap) const {
  process::ProcessResult r;
  const RunLock lock(lock_);
  if (!lock.held()) {
    r.spawn_error = "cannot open the sandbox user's lock " + lock_.string() + ": " + std::strerror(errno);
    return r;
  }
  kill_every_process_of(uid_, gid_);  // anything a killed gpulab left behind
  reap_orphans_of(uid_);
  const files::TempFolder top("user-sandbox");
  Jail jail(top.path(), uid_, gid_);
  try {
    jail.stage(policy);
  } catch (const std::exception& e) {
    r.spawn_error = std::string("cannot stage the run's files for the user '") + user_ + "': " + e.what();
    return r;
  }
  const SandboxPolicy inside = jail.translated(policy);

  process::ProcessOptions o;
  o.time_limit_s = wall_s;
  o.step_limit_s = limits.step_s;
  o.resident_limit_bytes = static_cast<size_t>(limits.resident_limit_mb) << 20;
  o.output_cap = static_cast<size_t>(limits.output_kb * 1024);
  o.stop_at_output_cap = stop_at_output_cap;
  o.clear_environment = true;
  o.env = inside.env;
  const uid_t uid = uid_;
  const gid_t gid = gid_;
  const std::string dir = inside.working_dir.string();
  o.before_exec = [&limits, uid, gid, &dir](std::string& message) {
    if (!dir.empty() && chdir(dir.c_str()) != 0) {
      message = "cannot enter the run's folder";
      return false;
    }
    if (!apply_rlimits(limits, true)) {
      message = "cannot set the resource limits of the run";
      return false;
    }
    if (setgroups(0, nullptr) != 0 || setgid(gid) != 0 || setuid(uid) != 0) {
      message = std::string("cannot switch to the sandbox's user: ") + std::strerror(errno);
      return false;
    }
    // A change of user clears the parent-death signal; set-user-ID programs must not raise privileges.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    umask(077);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || !install_network_filter()) {
      message = std::string("cannot install the sandbox's network filter (seccomp): ") + std::strerror(errno);
      return false;
    }
    return true;
  };
  r = process::run(inside.command, o);
  kill_every_process_of(uid_, gid_);
  reap_orphans_of(uid_);
  remove_files_of(uid_);
  try {
    r.output += jail.copy_back();
  } catch (const std::exception& e) {
    r.output += std::string("gpulab: cannot copy back what the run wrote: ") + e.what() + "\n";
  }
  r.output = jail.outside(std::move(r.output));
  return r;
}

std::string UserSandbox::description() const {
  return "unprivileged user '" + user_ + "' (uid " + std::to_string(uid_) +
         ") without namespaces: its own copy of the run's files, nothing of the grader's reachable, its processes "
         "ended with the run, no network sockets (seccomp)";
}

}  // namespace gpulab::sandbox
