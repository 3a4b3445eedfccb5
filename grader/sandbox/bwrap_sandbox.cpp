// BwrapSandbox: the availability check, privilege handling and staging, and runs.
#include "bwrap_sandbox.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "bwrap_command.hpp"
#include "files/temp_folder.hpp"

namespace gpulab::sandbox {
namespace fs = std::filesystem;
namespace {
std::string on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (end > start && access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

// A bind that the sandbox user may not be able to reach by path: mounted in a private
// namespace under the staging folder first (by root, before giving up root).
struct Staged {
  std::string source;
  std::string at;
  bool is_dir;
};

// `bwrap --version` prints "bubblewrap 0.8.0"; --disable-userns came with 0.8.
bool bwrap_at_least_0_8(const std::string& bwrap) {
  process::ProcessOptions o;
  o.time_limit_s = 10;
  const process::ProcessResult r = process::run({bwrap, "--version"}, o);
  int major = 0, minor = 0;
  if (std::sscanf(r.output.c_str(), "bubblewrap %d.%d", &major, &minor) != 2) return false;
  return major > 0 || minor >= 8;
}
}  // namespace

const char* const kHowToProceed =
    "Without a sandbox a submission could read the expected outputs and hidden datasets, overwrite the "
    "results file and leave processes running, so gpulab does not grade it.\n"
    "How to proceed:\n"
    "  - install bubblewrap: `apt-get install bubblewrap` (scripts/install-deps.sh does it);\n"
    "  - let it create user namespaces: Debian `sysctl -w kernel.unprivileged_userns_clone=1`; Ubuntu 23.10+ "
    "`sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`; in Docker, run the container with "
    "`--security-opt seccomp=unconfined --security-opt apparmor=unconfined` (or --privileged);\n"
    "  - or, where gpulab runs as root in a container that cannot create namespaces (Gradescope's autograder), "
    "isolate each submission as an unprivileged user instead: `--sandbox user` (or `--sandbox auto`: bubblewrap "
    "where it starts, else that);\n"
    "  - or, only where this machine is itself a throw-away container for one submission, pass --no-sandbox "
    "(docs/security.md says what each choice does not defend).";

std::string find_bwrap() {
  const char* env = std::getenv("GPULAB_BWRAP");
  return on_path(env && *env ? env : "bwrap");
}

std::unique_ptr<BwrapSandbox> BwrapSandbox::open() {
  std::unique_ptr<BwrapSandbox> box(new BwrapSandbox());
  const char* named = std::getenv("GPULAB_BWRAP");
  box->bwrap_ = find_bwrap();
  if (box->bwrap_.empty()) {
    throw SandboxUnavailable(std::string("the sandbox cannot start: ") +
                             (named && *named
                                  ? "GPULAB_BWRAP names '" + std::string(named) + "', which is not an executable"
                                  : std::string("bubblewrap (`bwrap`) is not installed (not found on PATH)")) +
                             ".\n" + kHowToProceed);
  }
  for (const char* p : {"/usr/bin/prlimit", "/bin/prlimit"}) {
    if (access(p, X_OK) == 0) {
      box->prlimit_ = p;
      break;
    }
  }
  if (box->prlimit_.empty()) {
    throw SandboxUnavailable(
        std::string("the sandbox cannot set its limits: `prlimit` (util-linux) is not in /usr/bin.\n") + kHowToProceed);
  }
  box->system_ = SystemView::of_this_machine();
  box->disable_userns_ = bwrap_at_least_0_8(box->bwrap_);
  if (geteuid() == 0) {
    box->switch_user_ = true;
    const passwd* nobody = getpwnam("nobody");
    box->uid_ = nobody ? nobody->pw_uid : 65534;
    box->gid_ = nobody ? nobody->pw_gid : 65534;
    box->stage_.emplace("sandbox-stage");
    chmod(box->stage_->path().c_str(), 0755);
  }

  // The check: a sandbox with the real limits writes one file into a folder handed to it.
  const files::TempFolder check("sandbox-check");
  const fs::path& check_dir = check.path();
  box->hand_over(check_dir);
  SandboxPolicy policy = compile_policy(box->system_, check_dir, {});
  policy.command = {"/bin/sh", "-c", "echo ok > probe"};
  const ResolvedLimits limits = resolve({}, false, 1, 1);
  const process::ProcessResult r = box->run(policy, limits, 30, false);
  std::error_code ec;
  const bool wrote = fs::exists(check_dir / "probe", ec);
  if (!r.started()) throw SandboxUnavailable("the sandbox cannot start here: " + r.spawn_error + "\n" + kHowToProceed);
  if (r.exit_code != 0 || r.signal != 0 || !wrote) {
    std::string said = r.output.empty() ? "(nothing)" : r.output;
    if (r.exit_code == 127 && r.output.empty()) {
      said = "nothing: it could not be executed" +
             std::string(box->switch_user_ ? " by the user 'nobody', which the sandbox runs as when gpulab runs as "
                                             "root (it must be executable by others, in folders others may enter)"
                                           : "");
    }
    while (!said.empty() && said.back() == '\n') said.pop_back();
    throw SandboxUnavailable(
        "the sandbox cannot start here: " + box->bwrap_ + " " +
        (r.timed_out ? "did not finish within 30 s" : "exited with status " + std::to_string(r.exit_code)) +
        " and said: " + said + "\n" + kHowToProceed);
  }
  return box;
}

void BwrapSandbox::hand_over(const fs::path& dir) const {
  if (!switch_user_) return;
  (void)!chown(dir.c_str(), uid_, gid_);
  // The folders the grader made inside it (a run of several cases has one per case).
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) (void)!chown(it->path().c_str(), uid_, gid_);
  }
}

void BwrapSandbox::take_back(const fs::path& dir) const {
  if (!switch_user_) return;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    (void)!lchown(it->path().c_str(), geteuid(), getegid());
  }
  (void)!lchown(dir.c_str(), geteuid(), getegid());
}

process::ProcessResult BwrapSandbox::run(SandboxPolicy policy, const ResolvedLimits& limits, double wall_s,
                                         bool stop_at_output_cap) const {
  std::vector<std::string> command = prlimit_prefix(prlimit_, limits);
  command.insert(command.end(), policy.command.begin(), policy.command.end());
  policy.command = command;
  policy.no_nested_namespaces = disable_userns_;

  std::vector<Staged> staged;
  if (switch_user_) {
    for (Bind& b : policy.binds) {
      if (b.optional) continue;  // system folders: readable by everyone by path
      std::error_code ec;
      const std::string at = (stage_->path() / std::to_string(staged.size())).string();
      staged.push_back({b.source.string(), at, fs::is_directory(b.source, ec)});
      b.source = at;
    }
  }
  int info[2];
  if (pipe2(info, O_CLOEXEC) != 0) {
    process::ProcessResult r;
    r.spawn_error = std::string("cannot create a pipe for the sandbox: ") + std::strerror(errno);
    return r;
  }
  process::ProcessOptions o;
  o.time_limit_s = wall_s;
  o.step_limit_s = limits.step_s;
  o.resident_limit_bytes = static_cast<size_t>(limits.resident_limit_mb) << 20;
  o.output_cap = static_cast<size_t>(limits.output_kb * 1024);
  o.stop_at_output_cap = stop_at_output_cap;
  o.clear_environment = true;
  o.hand_over_fds = {info[1]};
  o.sandbox_info_fd = info[0];
  const bool switch_user = switch_user_;
  const uid_t uid = uid_;
  const gid_t gid = gid_;
  const std::string stage = stage_ ? stage_->path().string() : std::string();
  o.before_exec = [&staged, switch_user, uid, gid, stage](std::string& message) {
    if (!switch_user) return true;
    if (unshare(CLONE_NEWNS) != 0 || mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        mount("tmpfs", stage.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k") != 0) {
      message = "cannot stage the sandbox's files (a private mount namespace is needed): " +
                std::string(std::strerror(errno));
      return false;
    }
    for (const Staged& s : staged) {
      if (s.is_dir) {
        mkdir(s.at.c_str(), 0755);
      } else {
        const int fd = ::open(s.at.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        if (fd >= 0) close(fd);
      }
      if (mount(s.source.c_str(), s.at.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) {
        message = "cannot stage '" + s.source + "' for the sandbox: " + std::strerror(errno);
        return false;
      }
    }
    // The process limit is set inside the sandbox, per sandbox; bwrap itself is not limited.
    const rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
    setrlimit(RLIMIT_NPROC, &unlimited);
    if (setgroups(0, nullptr) != 0 || setgid(gid) != 0 || setuid(uid) != 0) {
      message = "cannot switch to the sandbox's user: " + std::string(std::strerror(errno));
      return false;
    }
    return true;
  };
  process::ProcessResult r = process::run(bwrap_command(bwrap_, policy, info[1]), o);
  if (r.started() && !r.timed_out && !r.output_exceeded && r.signal == 0 && r.exit_code > 128 &&
      r.exit_code <= 128 + 64) {
    r.signal = r.exit_code - 128;
    r.exit_code = -1;
  }
  return r;
}

std::string BwrapSandbox::description() const {
  return std::string(
             "bubblewrap sandbox (namespaces: no network, its own processes and /tmp, only the files of "
             "the run") +
         (switch_user_ ? ", as the user 'nobody'" : "") + ")";
}

bool BwrapSandbox::refused(const process::ProcessResult& r) const {
  return r.exit_code == 1 && r.output.rfind("bwrap: ", 0) == 0;
}

}  // namespace gpulab::sandbox
