// Building the policies of a run and of a compile from the system view.
#include "sandbox_policy.hpp"

namespace gpulab::sandbox {
namespace fs = std::filesystem;
namespace {
constexpr unsigned long long kTmpBytes = 256ull << 20;

SandboxPolicy base_policy(const SystemView& s, bool gpu) {
  SandboxPolicy p;
  p.symlinks = s.system_links;
  for (const std::string& d : s.system_dirs) p.binds.push_back({d, d, Bind::Kind::read_only, false});
  for (const std::string& e : s.etc_entries) p.binds.push_back({e, e, Bind::Kind::read_only, true});
  for (const std::string& d : s.cuda_dirs) p.binds.push_back({d, d, Bind::Kind::read_only, true});
  if (gpu) {
    for (const std::string& d : s.gpu_devices) p.binds.push_back({d, d, Bind::Kind::device, true});
    // The CUDA driver reads the PCI topology and its own parameters from /sys.
    p.binds.push_back({"/sys", "/sys", Bind::Kind::read_only, true});
    for (const std::string& d : s.library_dirs) p.binds.push_back({d, d, Bind::Kind::read_only, true});
  }
  p.tmp_bytes = kTmpBytes;
  p.env["PATH"] = "/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin";
  p.env["TMPDIR"] = "/tmp";
  return p;
}
}  // namespace

SandboxPolicy run_policy(const SystemView& s, const fs::path& program, const fs::path& work_dir,
                         const std::vector<fs::path>& inputs, bool gpu) {
  SandboxPolicy p = base_policy(s, gpu);
  p.binds.push_back({work_dir, work_dir, Bind::Kind::writable, false});
  // Inputs are bound one file at a time: the expected outputs next to them stay out of sight.
  for (const fs::path& in : inputs) p.binds.push_back({in, in, Bind::Kind::read_only, false});
  p.binds.push_back({program, program, Bind::Kind::read_only, false});
  for (const auto& [k, v] : s.passed_env) p.env[k] = v;
  if (gpu && !s.library_dirs.empty()) {
    std::string path;
    for (const std::string& d : s.library_dirs) path += (path.empty() ? "" : ":") + d;
    p.env["LD_LIBRARY_PATH"] = path;
  }
  p.env["HOME"] = work_dir.string();
  p.working_dir = work_dir;
  return p;
}

SandboxPolicy compile_policy(const SystemView& s, const fs::path& build_dir, const std::vector<fs::path>& readable) {
  SandboxPolicy p = base_policy(s, false);
  p.tmp_bytes = 1024ull << 20;  // nvcc keeps its intermediate files in /tmp
  p.binds.push_back({build_dir, build_dir, Bind::Kind::writable, false});
  for (const fs::path& r : readable) p.binds.push_back({r, r, Bind::Kind::read_only, false});
  for (const char* k : {"LANG", "LC_ALL", "LC_MESSAGES"}) {
    if (auto it = s.passed_env.find(k); it != s.passed_env.end()) p.env[k] = it->second;
  }
  p.env["HOME"] = build_dir.string();
  p.working_dir = build_dir;
  return p;
}

}  // namespace gpulab::sandbox
