// Implementation of transfer_log.hpp: a byte count per route for the call
// being recorded, and the host-visible allocations that exist.
#include "harness/transfer_log.hpp"

#include <map>
#include <mutex>
#include <string>

#include "harness/transfer_routes.hpp"

namespace gpulab::harness {
namespace {
using nlohmann::json;

struct HostVisible {
  unsigned long long bytes;
  std::string route;
};

struct State {
  std::mutex mutex;
  bool recording = false;
  std::map<std::string, unsigned long long, std::less<>> bytes_by_route;  // the recorded call's
  std::map<const void*, HostVisible> host_visible;                        // what exists now
};

State& state() {
  static State* s = new State();  // used by hooks until the process ends: never destroyed
  return *s;
}

void add(State& s, std::string_view route, unsigned long long bytes) {
  if (bytes == 0 || !find_transfer_route(route)) return;
  auto it = s.bytes_by_route.find(route);
  if (it == s.bytes_by_route.end()) it = s.bytes_by_route.emplace(std::string(route), 0).first;
  it->second += bytes;
}
}  // namespace

TransferRecording::TransferRecording() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.bytes_by_route.clear();
  // Host-visible memory that already exists is there for this call's kernels and host code too.
  for (const auto& [address, h] : s.host_visible) add(s, h.route, h.bytes);
  s.recording = true;
}

TransferRecording::~TransferRecording() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.recording = false;
}

bool recording_transfers() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.recording;
}

void note_bytes_to_host(std::string_view route, unsigned long long bytes) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.recording) add(s, route, bytes);
}

void note_host_visible_added(const void* address, unsigned long long bytes, std::string_view route) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.host_visible[address] = HostVisible{bytes, std::string(route)};
  if (s.recording) add(s, route, bytes);
}

void note_host_visible_removed(const void* address) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.host_visible.erase(address);
}

json transfer_report() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  json routes = json::array();
  for (const auto& [route, bytes] : s.bytes_by_route) routes.push_back({{"route", route}, {"bytes", bytes}});
  return {{"routes", routes}};
}

}  // namespace gpulab::harness
