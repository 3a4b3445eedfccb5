// What a sandboxed process sees: the system folders (read-only), the files a
// compile or a run needs (read-only), the one folder it may write, GPU device
// nodes where there are any, and its environment. Pure data, so tests can
// check exactly what a policy exposes; bwrap_command.hpp turns it into a
// command line.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gpulab::sandbox {

struct Bind {
  enum class Kind { read_only, writable, device };
  std::filesystem::path source;  // on the host
  std::filesystem::path target;  // inside the sandbox (the same path, so every path in requests stays valid)
  Kind kind = Kind::read_only;
  bool optional = false;  // skipped by bwrap when the source does not exist
};

// The parts of this machine a sandbox is built from, found once (tests make their own).
struct SystemView {
  std::vector<std::string> system_dirs;  // read-only as they are: /usr, and /lib... where real folders
  std::vector<std::pair<std::string, std::string>> system_links;  // top-level symlinks recreated: {"/lib", "usr/lib"}
  std::vector<std::string> etc_entries;   // what loaders and compilers read in /etc (never /etc as a whole)
  std::vector<std::string> gpu_devices;   // /dev/nvidia0, /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-caps, ...
  std::vector<std::string> cuda_dirs;     // the CUDA toolkit where it lies outside /usr
  std::vector<std::string> library_dirs;  // LD_LIBRARY_PATH folders outside /usr (a GPU driver's libraries)
  std::map<std::string, std::string> passed_env;  // grader variables a run keeps (CUDA_VISIBLE_DEVICES, ...)

  static SystemView of_this_machine();
};

struct SandboxPolicy {
  std::vector<std::pair<std::string, std::string>> symlinks;  // {target, link}: /lib -> usr/lib as on the host
  std::vector<Bind> binds;                 // in order: system folders, devices, then the job's own files
  unsigned long long tmp_bytes = 0;        // size of the private /tmp and /dev/shm (memory-backed)
  std::map<std::string, std::string> env;  // the whole environment inside
  std::filesystem::path working_dir;
  std::vector<std::string> command;  // what runs inside, limits prefix included
  bool no_nested_namespaces = true;  // bwrap --disable-userns (bubblewrap 0.8 and later)
};

// A harness run: it may write `work_dir` only; it reads the program and the input files.
// The command and its environment are filled in by the caller.
SandboxPolicy run_policy(const SystemView& system, const std::filesystem::path& program,
                         const std::filesystem::path& work_dir, const std::vector<std::filesystem::path>& inputs,
                         bool gpu);

// A compile: it may write `build_dir` only; it reads the listed files and folders (sources,
// the grader's headers, the emulator's libraries) and the system's compilers.
SandboxPolicy compile_policy(const SystemView& system, const std::filesystem::path& build_dir,
                             const std::vector<std::filesystem::path>& readable);

}  // namespace gpulab::sandbox
