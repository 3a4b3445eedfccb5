// Tests of the sandbox at work (grader/sandbox/sandbox, with the real
// bubblewrap): what a sandboxed shell can see and write, that a time-out ends
// every process of the sandbox before run() returns, the process, CPU, file
// size and output limits, and the refusal where bwrap cannot start. Also the
// checks the grader makes on what a run leaves behind.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "grade/submission_runner.hpp"
#include "grader_test_support.hpp"
#include "sandbox/sandbox.hpp"

namespace fs = std::filesystem;
using gpulab::sandbox::Mode;
using gpulab::sandbox::resolve;
using gpulab::sandbox::ResourceLimits;
using gpulab::sandbox::Sandbox;
using gpulab::sandbox::SandboxUnavailable;
using gpulab_test::ScopedEnv;
using gpulab_test::TempDir;

namespace {
const Sandbox& sandbox() {
  static const std::unique_ptr<Sandbox> box = Sandbox::open(Mode::bwrap, {});
  return *box;
}

// A shell command in a run sandbox whose folder is `work`.
gpulab::process::ProcessResult shell(const TempDir& work, const std::string& script, ResourceLimits l = {},
                                     double wall_s = 20) {
  gpulab_test::write_file(work / "program", "");  // run_policy binds a program; the shell is the system's
  auto p = gpulab::sandbox::run_policy(sandbox().system(), work / "program", work.path(), {}, false);
  p.command = {"/bin/sh", "-c", script};
  sandbox().hand_over(work.path());
  return sandbox().run(p, resolve(l, false, 2, 2), wall_s, true);
}

bool any_process_with(const std::string& text) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    try {
      const std::string cmd = gpulab_test::read_file(e.path() / "cmdline");
      if (cmd.find(text) != std::string::npos) return true;
    } catch (const std::exception&) {  // a process that ended while being read
    }
  }
  return false;
}
}  // namespace

TEST_CASE("sandbox run: the folder is writable, the rest of the machine is not there or read-only", "[sandbox]") {
  TempDir work, outside;
  gpulab_test::write_file(outside / "secret.txt", "expected outputs");
  const std::string script =
      "echo made > made.txt; "
      "test -e '" +
      (outside / "secret.txt").string() +
      "' && echo SEES-OUTSIDE; "
      "echo x > /usr/gpulab-sandbox-test 2>/dev/null && echo WRITES-USR; "
      "echo x > /tmp/private && echo tmp-ok; "
      "test -e /etc/shadow && echo SEES-SHADOW; "
      "test -e /root && echo SEES-ROOT; "
      "cat /proc/net/dev; env; echo pids: $(ls /proc | grep -c '^[0-9]')";
  const auto r = shell(work, script);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(gpulab_test::read_file(work / "made.txt") == "made\n");  // on the host
  CHECK(r.output.find("SEES-OUTSIDE") == std::string::npos);
  CHECK(r.output.find("WRITES-USR") == std::string::npos);
  CHECK(r.output.find("SEES-SHADOW") == std::string::npos);
  CHECK(r.output.find("SEES-ROOT") == std::string::npos);
  CHECK(r.output.find("tmp-ok") != std::string::npos);
  CHECK_FALSE(fs::exists("/tmp/private"));
  CHECK(r.output.find("lo:") != std::string::npos);   // a network namespace of its own:
  CHECK(r.output.find("eth0") == std::string::npos);  // only loopback
  CHECK(r.output.find("HOME=" + work.path().string()) != std::string::npos);
  CHECK(r.output.find("GPULAB_CACHE") == std::string::npos);  // nothing of the grader's environment
}

TEST_CASE("sandbox run: the sandbox of a GPU run starts (here with no device nodes) and sees /sys", "[sandbox]") {
  TempDir work;
  gpulab_test::write_file(work / "program", "");
  auto p = gpulab::sandbox::run_policy(sandbox().system(), work / "program", work.path(), {}, true);
  p.command = {"/bin/sh", "-c", "ls /sys/bus >/dev/null && echo sys-ok"};
  sandbox().hand_over(work.path());
  const auto r = sandbox().run(p, resolve({}, true, 2, 2), 20, true);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output == "sys-ok\n");
}

TEST_CASE("sandbox run: a time-out ends every process of the sandbox before run() returns", "[sandbox]") {
  TempDir work;
  // Background sleepers, one in a session of its own: a process group kill would miss it.
  const auto r = shell(work, "sleep 61.5371 & setsid sleep 61.5372 & sleep 61.5373; wait", {}, 1.0);
  CHECK(r.timed_out);
  CHECK(r.seconds < 3.0);
  CHECK_FALSE(any_process_with("61.537"));
}

TEST_CASE("sandbox run: limits on processes, CPU time, file size and output", "[sandbox]") {
  TempDir work;
  SECTION("processes") {
    ResourceLimits l;
    l.processes = 12;
    const auto r = shell(work, "for i in $(seq 40); do sleep 1 & done; wait", l);
    INFO(r.output);
    CHECK(r.output.find("fork") != std::string::npos);
    CHECK_FALSE(r.timed_out);
  }
  SECTION("CPU time") {
    ResourceLimits l;
    l.cpu_s = 1;
    const auto r = shell(work, "while :; do :; done", l);
    CHECK(r.signal == SIGXCPU);
    CHECK(gpulab::grade::limit_reason(r) == gpulab::grade::StopReason::cpu_time_limit);
    CHECK_THAT(gpulab::grade::limit_feedback(r, resolve(l, false, 2, 2)), Catch::Contains("1 s of CPU time"));
  }
  SECTION("file size") {
    ResourceLimits l;
    l.file_size_mb = 1;
    const auto r = shell(work, "head -c 3000000 /dev/zero > big", l);
    CHECK(r.signal == SIGXFSZ);
    CHECK(fs::file_size(work / "big") == 1024 * 1024);
    CHECK(gpulab::grade::limit_reason(r) == gpulab::grade::StopReason::file_size_limit);
  }
  SECTION("output") {
    ResourceLimits l;
    l.output_kb = 4;
    const auto r = shell(work, "yes hello", l);
    CHECK(r.output_exceeded);
    CHECK_FALSE(r.timed_out);
    CHECK(r.seconds < 5);
    CHECK_THAT(gpulab::grade::limit_feedback(r, resolve(l, false, 2, 2)),
               Catch::Contains("more than 4 KiB") && Catch::Contains("hello"));
  }
  SECTION("a signal is reported as a signal") {
    const auto r = shell(work, "kill -SEGV $$");
    CHECK(r.signal == SIGSEGV);
    CHECK(r.exit_code == -1);
  }
}

TEST_CASE("sandbox run: a program reached through a symbolic link inside a bound folder runs", "[sandbox]") {
  // As compute-sanitizer on GPU machines: /usr/local/cuda/bin/..., where /usr is bound and
  // /usr/local/cuda is a link. Here the bound folder is the run's own, the link inside it
  // absolute; the input is reached through a link too, in a folder that is not bound.
  TempDir work, data;
  fs::create_directory(work / "real");
  gpulab_test::write_file(work / "real" / "prog.sh", "#!/bin/sh\necho ran-through-link; cat \"$1\"\n");
  fs::permissions(work / "real" / "prog.sh", fs::perms::all & ~fs::perms::group_write & ~fs::perms::others_write);
  fs::create_directory_symlink(work / "real", work / "link");
  fs::create_directory(data / "real");
  gpulab_test::write_file(data / "real" / "in.txt", "input-seen\n");
  fs::create_directory_symlink(data / "real", data / "link");
  const gpulab::grade::SubmissionRunner runner(gpulab::sandbox::Mode::bwrap, gpulab::toolchain::Backend::emu);
  const auto r = runner.run_case(work / "link" / "prog.sh", {(data / "link" / "in.txt").string()}, work.path(),
                                 {data / "link" / "in.txt"}, {}, runner.limits({}));
  INFO(r.output);
  CHECK(r.started());
  CHECK(r.exit_code == 0);
  CHECK(r.output == "ran-through-link\ninput-seen\n");
}

TEST_CASE("sandbox: refused, with why and how to proceed, where bwrap cannot start", "[sandbox]") {
  TempDir tmp;
  const fs::path fake = tmp / "bwrap";
  gpulab_test::write_file(fake, "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
  // Executable by others, in a folder others may enter: as root, bwrap runs as `nobody`.
  fs::permissions(tmp.path(), fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  fs::permissions(fake, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec | fs::perms::group_read |
                            fs::perms::others_read);
  {
    ScopedEnv env("GPULAB_BWRAP", fake.string());
    CHECK_THROWS_MATCHES(Sandbox::open(Mode::bwrap, {}), SandboxUnavailable,
                         Catch::Matchers::Predicate<SandboxUnavailable>([](const SandboxUnavailable& e) {
                           const std::string m = e.what();
                           return m.find("setting up uid map: Permission denied") != std::string::npos &&
                                  m.find("--no-sandbox") != std::string::npos &&
                                  m.find("apt-get install bubblewrap") != std::string::npos;
                         }));
  }
  {
    ScopedEnv env("GPULAB_BWRAP", (tmp / "missing").string());
    CHECK_THROWS_WITH(Sandbox::open(Mode::bwrap, {}), Catch::Contains("which is not an executable"));
  }
  {
    ScopedEnv env("GPULAB_BWRAP", std::nullopt);
    ScopedEnv path("PATH", tmp.path().string() + "/nowhere");
    CHECK_THROWS_WITH(Sandbox::open(Mode::bwrap, {}), Catch::Contains("not installed"));
  }
}

TEST_CASE("child files: only plain files are read back from a case's folder", "[sandbox]") {
  TempDir dir;
  gpulab_test::write_file(dir / "result.json", "{}");
  CHECK(gpulab::grade::check_child_files(dir.path(), {"result.json", "missing.npy"}).empty());
  fs::create_symlink("/etc/hostname", dir / "output_out.npy");
  CHECK_THAT(
      gpulab::grade::check_child_files(dir.path(), {"result.json", "output_out.npy"}),
      Catch::Contains("'output_out.npy'") && Catch::Contains("symbolic link") && Catch::Contains("/etc/hostname"));
  REQUIRE(mkfifo((dir / "diagnostics.jsonl").c_str(), 0600) == 0);  // would block a reader forever
  CHECK_THAT(gpulab::grade::check_child_files(dir.path(), {"diagnostics.jsonl"}), Catch::Contains("not a plain file"));
}
