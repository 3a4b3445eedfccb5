// The process-wide profile and its file (see profile_store.hpp).
#include "profile_store.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "access.hpp"
#include "gpulab/emu/profile_json.hpp"
#include "launch_state.hpp"
#include "platform/code_object.hpp"

namespace gpulab::emu::check {
namespace {

// Created on first use and never destroyed: the exit-time write runs after static
// destructors registered later than it (the checker installs itself before main).
struct Store {
  std::mutex mutex;
  std::vector<KernelProfile> kernels;
  std::map<std::pair<size_t, uint64_t>, size_t> site_index;  // (kernel, key) -> index in its sites
  std::chrono::steady_clock::time_point last_write;
};
Store& store() {
  static Store* s = new Store;
  return *s;
}

// What a symbolizer (`addr2line -e object`) takes for this code address: pc - 1 lies inside the
// instrumentation call, on the access's line (platform/code_object.hpp: ELF and Mach-O).
void locate(ProfiledSite& site) {
  const platform::CodeLocation where = platform::locate_code(site.pc - 1);
  if (where.object.empty()) return;
  site.object = where.object;
  site.object_address = where.object_address;
}

void write_file_locked() {
  const char* path = std::getenv("GPULAB_EMU_PROFILE");
  if (!path || !*path) return;
  // Never throws into the program: a file or kernel name that is not UTF-8 (a folder named in
  // Latin-1) is written with U+FFFD in its place.
  std::string text;
  try {
    text = profile_document(store().kernels).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  } catch (const std::exception&) {
    return;
  }
  const std::string temporary = std::string(path) + ".partial";
  FILE* f = std::fopen(temporary.c_str(), "w");
  if (!f) return;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (std::fclose(f) == 0 && ok) std::rename(temporary.c_str(), path);
  store().last_write = std::chrono::steady_clock::now();
}

size_t kernel_slot(const LaunchState& launch) {
  std::vector<KernelProfile>& kernels = store().kernels;
  for (size_t k = 0; k < kernels.size(); ++k) {
    if (kernels[k].kernel == launch.request.kernel_name) return k;
  }
  KernelProfile p;
  p.kernel = launch.request.kernel_name;
  p.file = launch.request.file ? launch.request.file : "";
  p.line = launch.request.line;
  kernels.push_back(std::move(p));
  return kernels.size() - 1;
}

void add_config(KernelProfile& p, const LaunchState& launch, size_t static_shared) {
  const LaunchRequest& r = launch.request;
  for (ProfiledLaunchConfig& c : p.configs) {
    if (c.grid[0] == r.grid.x && c.grid[1] == r.grid.y && c.grid[2] == r.grid.z && c.block[0] == r.block.x &&
        c.block[1] == r.block.y && c.block[2] == r.block.z && c.dynamic_shared == r.dynamic_shared_bytes &&
        c.static_shared == static_shared) {
      ++c.launches;
      return;
    }
  }
  ProfiledLaunchConfig c;
  c.grid[0] = r.grid.x, c.grid[1] = r.grid.y, c.grid[2] = r.grid.z;
  c.block[0] = r.block.x, c.block[1] = r.block.y, c.block[2] = r.block.z;
  c.dynamic_shared = r.dynamic_shared_bytes;
  c.static_shared = static_shared;
  c.launches = 1;
  p.configs.push_back(c);
}

}  // namespace

void add_launch_to_profile(const LaunchState& launch, const std::unordered_map<uint64_t, SiteCounts>& sites,
                           size_t static_shared_bytes, uint64_t unprofiled_accesses, uint64_t blocks,
                           uint64_t profiled_blocks) {
  Store& st = store();
  std::lock_guard<std::mutex> lock(st.mutex);
  const size_t k = kernel_slot(launch);
  KernelProfile& p = st.kernels[k];
  ++p.launches;
  p.unprofiled_accesses += unprofiled_accesses;
  p.blocks += blocks;
  p.profiled_blocks += profiled_blocks;
  add_config(p, launch, static_shared_bytes);
  for (const auto& [key, counts] : sites) {
    auto [it, fresh] = st.site_index.try_emplace({k, key}, p.sites.size());
    if (fresh) {
      ProfiledSite site;
      site.kind = static_cast<AccessSiteKind>(key & 7);
      site.pc = code_address(static_cast<int32_t>(static_cast<uint32_t>(key >> 3)));
      locate(site);
      p.sites.push_back(std::move(site));
    }
    add_counts(p.sites[it->second].counts, counts);
  }
  const auto now = std::chrono::steady_clock::now();
  if (p.launches <= 1 || now - st.last_write > std::chrono::milliseconds(500)) write_file_locked();
  write_profile_at_exit();
}

void write_profile_at_exit() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::atexit([] {
      std::lock_guard<std::mutex> lock(store().mutex);
      write_file_locked();
    });
  });
}

}  // namespace gpulab::emu::check

namespace gpulab::emu {

std::vector<KernelProfile> take_profile() {
  check::Store& st = check::store();
  std::lock_guard<std::mutex> lock(st.mutex);
  std::vector<KernelProfile> out;
  out.swap(st.kernels);
  st.site_index.clear();
  return out;
}

}  // namespace gpulab::emu
