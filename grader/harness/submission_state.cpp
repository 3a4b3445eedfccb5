// Implementation of submission_state.hpp (the host side; the device variables come from
// device_variables_cuda.cpp or device_variables_emu.cpp).
#include "harness/submission_state.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

extern "C" char __start_gpulab_submission_data[] __attribute__((weak));
extern "C" char __stop_gpulab_submission_data[] __attribute__((weak));
extern "C" char __start_gpulab_submission_bss[] __attribute__((weak));
extern "C" char __stop_gpulab_submission_bss[] __attribute__((weak));
// The program's own data and bss, from the linker (glibc's start files and GNU ld define them).
extern "C" char __data_start[] __attribute__((weak));
extern "C" char _end[] __attribute__((weak));

namespace gpulab::harness {
namespace {
struct Range {
  const char* begin;
  const char* end;
  size_t size() const { return begin && end > begin ? static_cast<size_t>(end - begin) : 0; }
};
Range data_range() { return {__start_gpulab_submission_data, __stop_gpulab_submission_data}; }
Range bss_range() { return {__start_gpulab_submission_bss, __stop_gpulab_submission_bss}; }
// Whether the build renamed the sections: each bound comes in pairs, and an object always has one.
bool sections_found() {
  const Range d = data_range(), b = bss_range();
  return (d.begin && d.end) || (b.begin && b.end);
}
std::vector<char> copy(const Range& r) { return r.size() ? std::vector<char>(r.begin, r.end) : std::vector<char>(); }
// The process's anonymous writable mappings ([heap], malloc's arenas, mmap'd memory), outside
// the program's own data: what a pointer allocated before main points into.
std::vector<std::pair<uintptr_t, uintptr_t>> dynamic_memory() {
  std::vector<std::pair<uintptr_t, uintptr_t>> out;
  std::ifstream maps("/proc/self/maps");
  const auto own_lo = reinterpret_cast<uintptr_t>(__data_start), own_hi = reinterpret_cast<uintptr_t>(_end);
  for (std::string line; std::getline(maps, line);) {
    std::istringstream f(line);
    std::string range, perms, offset, dev, path;
    unsigned long inode = 0;
    f >> range >> perms >> offset >> dev >> inode;
    std::getline(f, path);
    if (perms.size() < 2 || perms[1] != 'w' || inode != 0 || path.find("[stack") != std::string::npos) continue;
    const size_t dash = range.find('-');
    if (dash == std::string::npos) continue;
    const uintptr_t lo = std::stoull(range.substr(0, dash), nullptr, 16),
                    hi = std::stoull(range.substr(dash + 1), nullptr, 16);
    if (own_lo && own_hi && lo < own_hi && hi > own_lo) continue;  // the program's own bss
    out.emplace_back(lo, hi);
  }
  return out;
}

// The offsets of the snapshot's aligned words that point into dynamically allocated memory.
std::vector<size_t> pointers_into_dynamic_memory(const std::vector<char>& bytes,
                                                 const std::vector<std::pair<uintptr_t, uintptr_t>>& regions) {
  std::vector<size_t> out;
  for (size_t at = 0; at + sizeof(uintptr_t) <= bytes.size(); at += sizeof(uintptr_t)) {
    uintptr_t word = 0;
    std::memcpy(&word, bytes.data() + at, sizeof word);
    if (word < 4096) continue;
    for (const auto& [lo, hi] : regions) {
      if (word >= lo && word < hi) {
        out.push_back(at);
        break;
      }
    }
  }
  return out;
}

// Whether the words at `offsets` of the range hold what the snapshot holds.
bool same_words(const Range& r, const std::vector<char>& snapshot, const std::vector<size_t>& offsets) {
  if (r.size() != snapshot.size()) return false;
  for (size_t at : offsets)
    if (std::memcmp(r.begin + at, snapshot.data() + at, sizeof(uintptr_t)) != 0) return false;
  return true;
}
}  // namespace

SubmissionState::SubmissionState() {
  watched_ = sections_found();
  if (!watched_) return;
  data_ = copy(data_range());
  bss_ = copy(bss_range());
  for (const DeviceVariable& v : submission_device_variables()) {
    std::vector<char> bytes;
    if (!read_device_variable(v, bytes)) {
      watched_ = false;  // a device variable it cannot read: take every case to change the state
      return;
    }
    device_.push_back(std::move(bytes));
  }
  const auto regions = dynamic_memory();
  if (regions.empty()) {  // without the process's map every word might be such a pointer
    watched_ = false;
    return;
  }
  data_pointers_ = pointers_into_dynamic_memory(data_, regions);
  bss_pointers_ = pointers_into_dynamic_memory(bss_, regions);
}

std::string SubmissionState::cannot_restore() const {
  if (!watched_) return "its state cannot be watched in this build";
  if (!same_words(data_range(), data_, data_pointers_) || !same_words(bss_range(), bss_, bss_pointers_))
    return "a global or static variable that pointed into memory allocated before main now points elsewhere";
  return "";
}

void SubmissionState::restore() const {
  if (!cannot_restore().empty()) return;
  const Range d = data_range(), b = bss_range();
  if (d.size() == data_.size() && !data_.empty()) std::memcpy(const_cast<char*>(d.begin), data_.data(), data_.size());
  if (b.size() == bss_.size() && !bss_.empty()) std::memcpy(const_cast<char*>(b.begin), bss_.data(), bss_.size());
  const std::vector<DeviceVariable> vars = submission_device_variables();
  for (size_t i = 0; i < vars.size() && i < device_.size(); ++i) write_device_variable(vars[i], device_[i]);
}

}  // namespace gpulab::harness
