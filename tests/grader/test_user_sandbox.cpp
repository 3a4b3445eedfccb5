// Isolation without namespaces: the jail's mirror and path translation, what
// it copies back (links and special files recreated, never followed), the
// reachability check and the seccomp network filter. The runs as another user
// need root and the user gpulab-sandbox; they are skipped (with a message)
// otherwise, and the hostile corpus covers them end to end.
#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "grader_test_support.hpp"
#include "sandbox/jail.hpp"
#include "sandbox/network_filter.hpp"
#include "sandbox/other_user.hpp"
#include "sandbox/sandbox.hpp"

namespace fs = std::filesystem;
using gpulab::sandbox::Bind;
using gpulab::sandbox::Jail;
using gpulab::sandbox::SandboxPolicy;
using gpulab_test::read_file;
using gpulab_test::TempDir;
using gpulab_test::write_file;

namespace {
// A run's policy over files of `t`: a program and an input read-only, a work folder writable.
SandboxPolicy policy_in(const TempDir& t) {
  fs::create_directories(t / "data");
  fs::create_directories(t / "work");
  write_file(t / "data/input.npy", "input bytes");
  write_file(t / "data/expected.npy", "the answer");
  write_file(t / "prog", "#!/bin/sh\n");
  fs::permissions(t / "prog", fs::perms::owner_all);
  const nlohmann::json request = {{"params", {{{"file", (t / "data/input.npy").string()}}}},
                                  {"output_dir", (t / "work").string()},
                                  {"note", "not a path"}};
  write_file(t / "work/request.json", request.dump());
  SandboxPolicy p;
  p.binds.push_back({"/usr", "/usr", Bind::Kind::read_only, true});  // the system: not copied
  p.binds.push_back({t / "work", t / "work", Bind::Kind::writable, false});
  p.binds.push_back({t / "data/input.npy", t / "data/input.npy", Bind::Kind::read_only, false});
  p.binds.push_back({t / "prog", t / "prog", Bind::Kind::read_only, false});
  p.env = {{"HOME", (t / "work").string()}, {"TMPDIR", "/tmp"}, {"PATH", "/usr/bin:/bin"}};
  p.working_dir = t / "work";
  p.command = {(t / "prog").string(), "--request", (t / "work/request.json").string(), "-I",
               (t / "data").string(), "/tmp"};
  return p;
}
}  // namespace

TEST_CASE("jail: only the policy's files are mirrored, and paths are moved under the mirror", "[sandbox]") {
  const TempDir t, top;
  const SandboxPolicy p = policy_in(t);
  Jail jail(top.path(), getuid(), getgid());
  jail.stage(p);
  const fs::path m = jail.mirror();
  const auto under = [&](const fs::path& x) { return m / x.relative_path(); };

  CHECK(read_file(under(t / "data/input.npy")) == "input bytes");
  CHECK_FALSE(fs::exists(under(t / "data/expected.npy")));  // beside an input, never staged
  CHECK_FALSE(fs::exists(m / "usr"));                       // the system is not copied
  CHECK(fs::is_directory(under(t / "work")));

  const SandboxPolicy in = jail.translated(p);
  CHECK(in.command[0] == under(t / "prog").string());
  CHECK(in.command[2] == under(t / "work/request.json").string());
  CHECK(in.command[4] == under(t / "data").string());  // a staged file's folder (an -I folder)
  CHECK(in.command[5] == "/tmp");                      // not a staged path: as it is
  CHECK(in.env.at("HOME") == under(t / "work").string());
  CHECK(in.env.at("TMPDIR") == jail.tmp().string());
  CHECK(in.env.at("PATH") == "/usr/bin:/bin");
  CHECK(in.working_dir == under(t / "work"));

  // The request the grader wrote names the mirrored input and output folder; other strings stay.
  const nlohmann::json request = nlohmann::json::parse(read_file(under(t / "work/request.json")));
  CHECK(request["params"][0]["file"] == under(t / "data/input.npy").string());
  CHECK(request["output_dir"] == under(t / "work").string());
  CHECK(request["note"] == "not a path");

  CHECK(jail.outside("error in " + under(t / "work/x.cu").string()) == "error in " + (t / "work/x.cu").string());
}

TEST_CASE("jail: what the run wrote comes back, links and FIFOs come back as such, never followed", "[sandbox]") {
  const TempDir t, top;
  const SandboxPolicy p = policy_in(t);
  Jail jail(top.path(), getuid(), getgid());
  jail.stage(p);
  const fs::path w = jail.mirror() / (t / "work").relative_path();
  write_file(w / "output_in.npy", "result bytes");
  fs::create_directories(w / "sub");
  write_file(w / "sub/deep.txt", "deep");
  write_file(w / "result.json", "{\"output\": \"" + (w / "output_in.npy").string() + "\"}");
  fs::create_symlink(t / "data/expected.npy", w / "link.npy");
  REQUIRE(mkfifo((w / "pipe.npy").c_str(), 0600) == 0);
  write_file(t / "work/link.npy", "the grader's own file");  // replaced by the link, not written through

  CHECK(jail.copy_back() == "");
  CHECK(read_file(t / "work/output_in.npy") == "result bytes");
  CHECK(read_file(t / "work/sub/deep.txt") == "deep");
  CHECK(read_file(t / "work/result.json") == "{\"output\": \"" + (t / "work/output_in.npy").string() + "\"}");
  CHECK(fs::is_symlink(t / "work/link.npy"));
  CHECK(fs::read_symlink(t / "work/link.npy") == t / "data/expected.npy");
  CHECK(read_file(t / "data/expected.npy") == "the answer");  // nothing was written through the link
  CHECK(fs::is_fifo(t / "work/pipe.npy"));

  CHECK(jail.copy_back(2).find("more than 2 files and folders") != std::string::npos);
}

TEST_CASE("jail: a file named twice, or inside a folder also named, is staged once", "[sandbox]") {
  const TempDir t, top;
  SandboxPolicy p = policy_in(t);
  p.binds.push_back({t / "data", t / "data", Bind::Kind::read_only, false});                      // its folder
  p.binds.push_back({t / "data/input.npy", t / "data/input.npy", Bind::Kind::read_only, false});  // again
  Jail jail(top.path(), getuid(), getgid());
  REQUIRE_NOTHROW(jail.stage(p));
  CHECK(read_file(jail.mirror() / (t / "data/input.npy").relative_path()) == "input bytes");
}

TEST_CASE("jail: a missing read-only file is a staging error that names it", "[sandbox]") {
  const TempDir t, top;
  SandboxPolicy p = policy_in(t);
  p.binds.push_back({t / "missing.npy", t / "missing.npy", Bind::Kind::read_only, false});
  Jail jail(top.path(), getuid(), getgid());
  CHECK_THROWS_WITH(jail.stage(p), Catch::Contains("missing.npy"));
}

TEST_CASE("the network filter refuses IP sockets and keeps Unix-domain ones", "[sandbox]") {
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (!gpulab::sandbox::install_network_filter()) _exit(10);
    if (socket(AF_INET, SOCK_STREAM, 0) >= 0 || errno != EACCES) _exit(11);
    if (socket(AF_INET6, SOCK_DGRAM, 0) >= 0) _exit(12);
    if (socket(AF_UNIX, SOCK_STREAM, 0) < 0) _exit(13);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);  // 10: not installed, 11/12: an IP socket opened, 13: Unix refused
}

TEST_CASE("as another user: private folders are out of reach, and every process of the user ends", "[sandbox]") {
  const passwd* pw = getpwnam("gpulab-sandbox");
  if (geteuid() != 0 || !pw) {
    WARN("skipped: needs root and the user gpulab-sandbox (scripts/install-deps.sh --test creates it)");
    return;
  }
  // Its runs are the user's: taken in turn with gpulab's own (the lock UserSandbox::run holds), so
  // that killing every process of the user cannot end another test's grading.
  mkdir("/run/gpulab", 0700);
  const std::string lock = "/run/gpulab/sandbox-user-" + std::to_string(pw->pw_uid) + ".lock";
  const int lock_fd = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  REQUIRE(lock_fd >= 0);
  REQUIRE(flock(lock_fd, LOCK_EX) == 0);
  const TempDir t;  // mkdtemp: 0700, root's
  fs::create_directories(t / "inner");
  write_file(t / "inner/secret", "x");
  fs::permissions(t / "inner", fs::perms::all);
  fs::permissions(t / "inner/secret", fs::perms::all);
  const std::vector<fs::path> reach =
      gpulab::sandbox::reachable_by(pw->pw_uid, pw->pw_gid, {t.path(), t / "inner", t / "inner/secret", "/usr"});
  CHECK(reach == std::vector<fs::path>{"/usr"});  // behind a 0700 folder, even an open file is out of reach

  prctl(PR_SET_CHILD_SUBREAPER, 1);  // as UserSandbox::open does: the orphan comes back here
  const pid_t pid = fork();
  if (pid == 0) {
    if (setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0) _exit(1);
    setsid();
    if (fork() == 0) pause();  // an orphan-to-be
    pause();
    _exit(0);
  }
  usleep(100 * 1000);
  CHECK(gpulab::sandbox::kill_every_process_of(pw->pw_uid, pw->pw_gid) >= 1);
  waitpid(pid, nullptr, 0);
  CHECK(gpulab::sandbox::reap_orphans_of(pw->pw_uid) == 1);                    // the orphan, reaped here
  CHECK(gpulab::sandbox::kill_every_process_of(pw->pw_uid, pw->pw_gid) == 0);  // none left, not even a zombie
  close(lock_fd);
}
