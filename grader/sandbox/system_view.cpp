// SystemView::of_this_machine: which system folders, /etc entries, GPU device
// nodes and CUDA folders exist here.
#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "sandbox_policy.hpp"

namespace gpulab::sandbox {
namespace fs = std::filesystem;
namespace {
bool under_usr(const fs::path& p) {
  const std::string s = p.lexically_normal().string();
  return s == "/usr" || s.rfind("/usr/", 0) == 0;
}
}  // namespace

SystemView SystemView::of_this_machine() {
  SystemView v;
  std::error_code ec;
  v.system_dirs.push_back("/usr");
  for (const char* d : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    const fs::file_status st = fs::symlink_status(d, ec);
    if (ec || !fs::exists(st)) continue;
    if (fs::is_symlink(st)) v.system_links.emplace_back(fs::read_symlink(d, ec).string(), d);
    else if (fs::is_directory(st)) v.system_dirs.push_back(d);
  }
  for (const char* e :
       {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime"}) {
    if (fs::exists(e, ec)) v.etc_entries.push_back(e);
  }
  for (const auto& entry : fs::directory_iterator("/dev", ec)) {
    if (entry.path().filename().string().rfind("nvidia", 0) == 0) v.gpu_devices.push_back(entry.path().string());
  }
  std::sort(v.gpu_devices.begin(), v.gpu_devices.end());
  // The toolkit where CUDA_HOME or CUDA_PATH say, and where it is usually installed.
  std::vector<std::string> toolkits;
  for (const char* k : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* d = std::getenv(k); d && *d == '/') toolkits.emplace_back(d);
  }
  toolkits.insert(toolkits.end(), {"/usr/local/cuda", "/opt/cuda"});
  for (const std::string& c : toolkits) {
    const fs::path real = fs::canonical(c, ec);
    if (ec || under_usr(real) || std::count(v.cuda_dirs.begin(), v.cuda_dirs.end(), real.string())) continue;
    v.cuda_dirs.push_back(real.string());
  }
  if (const char* lp = std::getenv("LD_LIBRARY_PATH")) {
    std::string s = lp;
    for (size_t start = 0; start <= s.size();) {
      const size_t end = std::min(s.find(':', start), s.size());
      const fs::path d = s.substr(start, end - start);
      if (d.is_absolute() && fs::is_directory(d, ec) && !under_usr(d)) v.library_dirs.push_back(d.string());
      start = end + 1;
    }
  }
  for (const char* k : {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "GPULAB_EMU_WORKERS", "GPULAB_EMU_REGIONS", "LANG",
                        "LC_ALL", "LC_MESSAGES"}) {
    if (const char* val = std::getenv(k)) v.passed_env[k] = val;
  }
  return v;
}

}  // namespace gpulab::sandbox
