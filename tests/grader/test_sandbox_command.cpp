// Tests of what a sandbox exposes (grader/sandbox/sandbox_policy,
// bwrap_command): the bubblewrap command line of a run and of a compile, on a
// made-up machine with and without GPU device nodes (there is no GPU here, so
// the /dev/nvidia* binds are checked on the command line), and the files a
// compile job names for its sandbox.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "grader_test_support.hpp"
#include "sandbox/bwrap_command.hpp"
#include "sandbox/sandbox_policy.hpp"
#include "toolchain/toolchain.hpp"

using gpulab::sandbox::bwrap_command;
using gpulab::sandbox::SystemView;

namespace {
SystemView fake_machine(bool gpu) {
  SystemView v;
  v.system_dirs = {"/usr", "/opt/toolchain"};
  v.system_links = {{"usr/lib", "/lib"}, {"usr/bin", "/bin"}};
  v.etc_entries = {"/etc/ld.so.cache", "/etc/alternatives"};
  if (gpu) {
    v.gpu_devices = {"/dev/nvidia-caps", "/dev/nvidia-uvm", "/dev/nvidia0", "/dev/nvidiactl"};
    v.library_dirs = {"/usr/local/nvidia/lib64"};
  }
  v.passed_env = {{"CUDA_VISIBLE_DEVICES", "1"}, {"LANG", "C.UTF-8"}};
  return v;
}

// True when `args` holds the consecutive run `want`.
bool has(const std::vector<std::string>& args, const std::vector<std::string>& want) {
  return std::search(args.begin(), args.end(), want.begin(), want.end()) != args.end();
}
bool mentions(const std::vector<std::string>& args, const std::string& text) {
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) { return a.find(text) != std::string::npos; });
}

const std::string kWork = "/tmp/gpulab-grade-x/int-tiny-1";
const std::string kInput = "/srv/course/datasets/reduction/int-tiny-1/input_in.npy";
const std::string kProgram = "/home/ta/.cache/gpulab/0123/program";
}  // namespace

TEST_CASE("sandbox command: a run sees its inputs, its program and its folder, nothing else of the grader",
          "[sandbox]") {
  auto p = gpulab::sandbox::run_policy(fake_machine(false), kProgram, kWork, {kInput}, false);
  p.command = {"/usr/bin/prlimit", "--nproc=48", "--", kProgram, "--request", kWork + "/request.json"};
  const auto a = bwrap_command("/usr/bin/bwrap", p, 7);
  INFO(Catch::Detail::stringify(a));
  CHECK(a.front() == "/usr/bin/bwrap");
  // Namespaces: no network, no other processes, no nested namespaces; dies with the grader.
  for (const char* flag :
       {"--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session", "--clearenv"}) {
    CHECK(has(a, {flag}));
  }
  CHECK_FALSE(has(a, {"--share-net"}));
  CHECK(has(a, {"--info-fd", "7"}));
  p.no_nested_namespaces = false;  // bubblewrap before 0.8 does not know the option
  CHECK_FALSE(has(bwrap_command("/usr/bin/bwrap", p, 7), {"--disable-userns"}));
  // System read-only, a fresh /proc and /dev, a private size-limited /tmp.
  CHECK(has(a, {"--ro-bind", "/usr", "/usr"}));
  CHECK(has(a, {"--ro-bind", "/opt/toolchain", "/opt/toolchain"}));
  CHECK(has(a, {"--symlink", "usr/lib", "/lib"}));
  CHECK(has(a, {"--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"}));
  CHECK(has(a, {"--proc", "/proc", "--dev", "/dev"}));
  CHECK(has(a, {"--tmpfs", "/tmp"}));
  CHECK(has(a, {"--tmpfs", "/dev/shm"}));
  // The case's folder is the only writable bind; the input file and the program are read-only.
  CHECK(has(a, {"--bind", kWork, kWork}));
  CHECK(std::count(a.begin(), a.end(), "--bind") == 1);
  CHECK(has(a, {"--ro-bind", kInput, kInput}));
  CHECK(has(a, {"--ro-bind", kProgram, kProgram}));
  // Not the dataset folder (expected outputs lie there), not the cache, not the reference.
  CHECK_FALSE(has(a, {"/srv/course/datasets/reduction/int-tiny-1"}));
  CHECK_FALSE(mentions(a, "expected"));
  CHECK_FALSE(mentions(a, "reference"));
  CHECK_FALSE(has(a, {"/home/ta/.cache/gpulab"}));
  CHECK_FALSE(has(a, {"--ro-bind", "/etc", "/etc"}));
  // No GPU here: no device nodes, no /sys.
  CHECK_FALSE(mentions(a, "nvidia"));
  CHECK_FALSE(has(a, {"/sys"}));
  // The environment is built, not inherited.
  CHECK(has(a, {"--setenv", "HOME", kWork}));
  CHECK(has(a, {"--setenv", "CUDA_VISIBLE_DEVICES", "1"}));
  CHECK(has(a, {"--chdir", kWork}));
  // The command comes last, after "--".
  const auto dashes = std::find(a.begin(), a.end(), "--");
  REQUIRE(dashes != a.end());
  CHECK(std::vector<std::string>(dashes + 1, a.end()) == p.command);
}

TEST_CASE("sandbox command: on a GPU machine the device nodes, /sys and the driver's libraries are bound",
          "[sandbox]") {
  const auto machine = fake_machine(true);
  auto p = gpulab::sandbox::run_policy(machine, kProgram, kWork, {kInput}, true);
  p.command = {kProgram};
  const auto a = bwrap_command("bwrap", p, -1);
  INFO(Catch::Detail::stringify(a));
  for (const std::string& dev : machine.gpu_devices) CHECK(has(a, {"--dev-bind-try", dev, dev}));
  CHECK(has(a, {"--ro-bind-try", "/sys", "/sys"}));
  CHECK(has(a, {"--ro-bind-try", "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib64"}));
  CHECK(has(a, {"--setenv", "LD_LIBRARY_PATH", "/usr/local/nvidia/lib64"}));
  CHECK_FALSE(has(a, {"--info-fd"}));
  // Device nodes come after the fresh /dev, or they would be hidden by it.
  const auto dev = std::find(a.begin(), a.end(), "--dev");
  const auto node = std::find(a.begin(), a.end(), "/dev/nvidia0");
  CHECK(dev < node);

  // The emulator backend on the same machine gets no device.
  auto emu = gpulab::sandbox::run_policy(machine, kProgram, kWork, {kInput}, false);
  CHECK_FALSE(mentions(bwrap_command("bwrap", emu, -1), "nvidia"));
}

TEST_CASE("sandbox command: a compile writes its build folder only and reads the files it is given", "[sandbox]") {
  const std::string build = "/home/ta/.cache/gpulab/4567";
  const std::string source = "/srv/submissions/alice/reduction.cu";
  auto p = gpulab::sandbox::compile_policy(fake_machine(false), build,
                                           {source, "/srv/course/grader", "/srv/build/libgpulab_emu.a"});
  p.command = {"/usr/bin/c++", "-c", source};
  const auto a = bwrap_command("bwrap", p, -1);
  INFO(Catch::Detail::stringify(a));
  CHECK(has(a, {"--bind", build, build}));
  CHECK(std::count(a.begin(), a.end(), "--bind") == 1);
  CHECK(has(a, {"--ro-bind", source, source}));
  CHECK(has(a, {"--ro-bind", "/srv/course/grader", "/srv/course/grader"}));
  CHECK(has(a, {"--ro-bind", "/srv/build/libgpulab_emu.a", "/srv/build/libgpulab_emu.a"}));
  // Only the submission's own file: not its folder (other students' files may lie there).
  CHECK_FALSE(has(a, {"/srv/submissions/alice"}));
  CHECK_FALSE(mentions(a, "/srv/course/reference"));
  CHECK_FALSE(mentions(a, "/srv/course/datasets"));
  CHECK(has(a, {"--setenv", "LANG", "C.UTF-8"}));
  CHECK_FALSE(has(a, {"--setenv", "CUDA_VISIBLE_DEVICES", "1"}));
  CHECK(has(a, {"--unshare-all"}));
}

TEST_CASE("sandbox command: this machine's view has /usr, and /etc only in parts", "[sandbox]") {
  const SystemView v = SystemView::of_this_machine();
  CHECK(std::find(v.system_dirs.begin(), v.system_dirs.end(), "/usr") != v.system_dirs.end());
  for (const auto& [target, link] : v.system_links) CHECK(link.rfind("/", 0) == 0);
  for (const std::string& e : v.etc_entries) {
    CHECK(e.rfind("/etc/", 0) == 0);
    CHECK(e != "/etc/shadow");
    CHECK(e != "/etc/passwd");
  }
}

TEST_CASE("sandbox command: a compile job lists the submission's own headers, not files outside its folder",
          "[sandbox]") {
  gpulab_test::TempDir root, cache;
  gpulab_test::ScopedEnv env_cache("GPULAB_CACHE", cache.path().string());
  std::filesystem::create_directories(root / "course/submissions/alice");
  gpulab_test::write_file(root / "course/secret.h", "int secret = 42;\n");
  gpulab_test::write_file(root / "course/submissions/alice/helper.cuh", "#include \"../../secret.h\"\n");
  gpulab_test::write_file(root / "course/submissions/alice/sub.cu",
                          "#include \"helper.cuh\"\n#include \"../../secret.h\"\nint main() { return 0; }\n");
  gpulab::toolchain::BuildOptions o;
  o.use_cache = false;
  o.include_dirs = {"/srv/course/grader"};
  gpulab::toolchain::CompileJob seen;
  o.run_compiler = [&](const gpulab::toolchain::CompileJob& job) {
    seen = job;
    gpulab::process::ProcessResult r;
    r.exit_code = 1;
    r.output = "not compiled in this test";
    return r;
  };
  const auto r = gpulab::toolchain::build_program(root / "course/submissions/alice/sub.cu", o);
  CHECK_FALSE(r.ok);
  CHECK(r.compiler_output == "not compiled in this test");
  std::vector<std::string> reads;
  for (const auto& p : seen.reads) reads.push_back(p.string());
  INFO(Catch::Detail::stringify(reads));
  const auto listed = [&](const std::string& p) { return std::find(reads.begin(), reads.end(), p) != reads.end(); };
  CHECK(listed((root / "course/submissions/alice/sub.cu").string()));
  CHECK(listed((root / "course/submissions/alice/helper.cuh").string()));
  CHECK_FALSE(mentions(reads, "secret.h"));  // outside the submission's folder: the compile fails instead
  CHECK(listed("/srv/course/grader"));
  CHECK(mentions(reads, "libgpulab_emu"));
  CHECK(seen.build_dir.string().rfind(cache.path().string(), 0) == 0);
  CHECK(has(seen.argv, {"-o", (seen.build_dir / "program").string()}));
}
