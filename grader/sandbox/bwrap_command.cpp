// bwrap_command: a policy, serialised as bwrap's options.
#include "bwrap_command.hpp"

namespace gpulab::sandbox {

std::vector<std::string> bwrap_command(const std::string& bwrap, const SandboxPolicy& p, int info_fd) {
  std::vector<std::string> a = {bwrap,
                                "--unshare-all",   // user, pid, net, ipc, uts, cgroup: no network, no other processes
                                "--unshare-user",  // explicit, so that --disable-userns applies
                                "--die-with-parent",
                                "--new-session",
                                "--clearenv"};
  if (p.no_nested_namespaces) a.insert(a.begin() + 3, "--disable-userns");  // no namespaces inside the sandbox
  if (info_fd >= 0) a.insert(a.end(), {"--info-fd", std::to_string(info_fd)});
  for (const auto& [k, v] : p.env) a.insert(a.end(), {"--setenv", k, v});
  a.insert(a.end(), {"--proc", "/proc", "--dev", "/dev"});
  const std::string tmp_size = std::to_string(p.tmp_bytes ? p.tmp_bytes : 64ull << 20);
  a.insert(a.end(), {"--size", tmp_size, "--tmpfs", "/tmp", "--size", tmp_size, "--tmpfs", "/dev/shm"});
  for (const auto& [target, link] : p.symlinks) a.insert(a.end(), {"--symlink", target, link});
  for (const Bind& b : p.binds) {
    std::string option = b.kind == Bind::Kind::writable ? "--bind"
                         : b.kind == Bind::Kind::device ? "--dev-bind"
                                                        : "--ro-bind";
    if (b.optional) option += "-try";
    a.insert(a.end(), {option, b.source.string(), b.target.string()});
  }
  if (!p.working_dir.empty()) a.insert(a.end(), {"--chdir", p.working_dir.string()});
  a.push_back("--");
  a.insert(a.end(), p.command.begin(), p.command.end());
  return a;
}

}  // namespace gpulab::sandbox
