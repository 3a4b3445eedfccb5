// Implementation of transfer_log.hpp: device ranges that hold copies of an
// input ("input copies") or of host bytes ("host copies"), kept as segments
// that later copies overwrite, move and read.
#include "harness/transfer_log.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

namespace gpulab::harness {
namespace {
using nlohmann::json;

// The most host bytes kept to compare outputs with: far more than any lab's outputs, and a
// bound on what a submission can make the harness hold.
constexpr size_t kMaxHostBytes = size_t{1} << 30;

struct Watched {
  uintptr_t begin = 0;
  size_t bytes = 0;
  size_t element = 1;
  bool input = false;
  std::vector<unsigned char> reached_host;  // inputs: per element, copied to the host (lazily sized)
};

struct InputCopy {  // device [begin, begin + bytes) holds input `input`'s bytes from `offset`
  uintptr_t begin;
  size_t bytes;
  size_t input;
  size_t offset;
};

struct HostCopy {  // device [begin, begin + bytes.size()) holds these bytes from host memory
  uintptr_t begin;
  std::vector<unsigned char> bytes;
};

struct State {
  std::mutex mutex;
  bool recording = false;
  std::vector<Watched> watched;
  std::vector<InputCopy> input_copies;
  std::vector<HostCopy> host_copies;
  size_t host_bytes = 0;
};

State& state() {
  static State* s = new State();  // used by hooks until the process ends: never destroyed
  return *s;
}

// Removes [begin, end) from segments (a later copy overwrote those bytes).
void forget(State& s, uintptr_t begin, uintptr_t end) {
  std::vector<InputCopy> inputs;
  for (const InputCopy& c : s.input_copies) {
    const uintptr_t c_end = c.begin + c.bytes;
    if (c_end <= begin || c.begin >= end) {
      inputs.push_back(c);
      continue;
    }
    if (c.begin < begin) inputs.push_back({c.begin, begin - c.begin, c.input, c.offset});
    if (c_end > end) inputs.push_back({end, c_end - end, c.input, c.offset + (end - c.begin)});
  }
  s.input_copies.swap(inputs);
  std::vector<HostCopy> hosts;
  for (HostCopy& c : s.host_copies) {
    const uintptr_t c_end = c.begin + c.bytes.size();
    if (c_end <= begin || c.begin >= end) {
      hosts.push_back(std::move(c));
      continue;
    }
    if (c.begin < begin) hosts.push_back({c.begin, {c.bytes.begin(), c.bytes.begin() + (begin - c.begin)}});
    if (c_end > end) hosts.push_back({end, {c.bytes.begin() + (end - c.begin), c.bytes.end()}});
  }
  s.host_copies.swap(hosts);
  s.host_bytes = 0;
  for (const HostCopy& c : s.host_copies) s.host_bytes += c.bytes.size();
}

// The pieces of [begin, begin + bytes) that hold input bytes: each as (its offset in the range,
// length, input, offset in the input).
struct InputPiece {
  size_t at, length, input, offset;
};
std::vector<InputPiece> input_pieces(const State& s, uintptr_t begin, size_t bytes) {
  std::vector<InputPiece> out;
  const uintptr_t end = begin + bytes;
  for (size_t i = 0; i < s.watched.size(); ++i) {
    const Watched& w = s.watched[i];
    if (!w.input) continue;
    const uintptr_t lo = std::max(begin, w.begin), hi = std::min(end, w.begin + w.bytes);
    if (lo < hi) out.push_back({lo - begin, hi - lo, i, lo - w.begin});
  }
  for (const InputCopy& c : s.input_copies) {
    const uintptr_t lo = std::max(begin, c.begin), hi = std::min(end, c.begin + c.bytes);
    if (lo < hi) out.push_back({lo - begin, hi - lo, c.input, c.offset + (lo - c.begin)});
  }
  return out;
}

void mark_reached_host(Watched& w, size_t offset, size_t length) {
  if (w.reached_host.empty()) w.reached_host.assign(w.bytes / w.element + 1, 0);
  const size_t first = offset / w.element, last = (offset + length + w.element - 1) / w.element;
  for (size_t e = first; e < last && e < w.reached_host.size(); ++e) w.reached_host[e] = 1;
}

bool all_zero(const unsigned char* p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (p[i]) return false;
  return true;
}

void add_host_copy(State& s, uintptr_t begin, const unsigned char* bytes, size_t n) {
  if (n == 0 || all_zero(bytes, n) || s.host_bytes + n > kMaxHostBytes) return;
  s.host_copies.push_back({begin, std::vector<unsigned char>(bytes, bytes + n)});
  s.host_bytes += n;
}

json buffer_entry(const std::string& name, size_t count, size_t elements, long long first) {
  json j = {{"buffer", name},
            {"elements", count},
            {"fraction", elements ? static_cast<double>(count) / static_cast<double>(elements) : 0.0}};
  if (first >= 0) j["first_element"] = first;
  return j;
}
}  // namespace

TransferRecording::TransferRecording(const std::vector<DeviceBuffer>& buffers) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.watched.clear();
  s.input_copies.clear();
  s.host_copies.clear();
  s.host_bytes = 0;
  for (const DeviceBuffer& b : buffers) {
    Watched w;
    w.begin = reinterpret_cast<uintptr_t>(b.data);
    w.bytes = b.bytes;
    w.element = std::max<size_t>(1, dtype_size(b.host.dtype()));
    w.input = b.role == "input";
    s.watched.push_back(std::move(w));
  }
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

void note_copy(void* dst, const void* src, size_t bytes, CopyDirection direction) {
  if (bytes == 0 || !dst || !src) return;
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.recording) return;
  const auto d = reinterpret_cast<uintptr_t>(dst);
  const auto from = reinterpret_cast<uintptr_t>(src);
  switch (direction) {
    case CopyDirection::host_to_device:
      forget(s, d, d + bytes);
      add_host_copy(s, d, static_cast<const unsigned char*>(src), bytes);
      break;
    case CopyDirection::device_to_device: {
      // What the source holds moves with the copy: input bytes and host bytes alike.
      const std::vector<InputPiece> inputs = input_pieces(s, from, bytes);
      std::vector<HostCopy> moved;
      for (const HostCopy& c : s.host_copies) {
        const uintptr_t lo = std::max(from, c.begin), hi = std::min(from + bytes, c.begin + c.bytes.size());
        if (lo < hi)
          moved.push_back({d + (lo - from), {c.bytes.begin() + (lo - c.begin), c.bytes.begin() + (hi - c.begin)}});
      }
      forget(s, d, d + bytes);
      for (const InputPiece& p : inputs) s.input_copies.push_back({d + p.at, p.length, p.input, p.offset});
      for (HostCopy& c : moved) add_host_copy(s, c.begin, c.bytes.data(), c.bytes.size());
      break;
    }
    case CopyDirection::device_to_host:
      for (const InputPiece& p : input_pieces(s, from, bytes))
        mark_reached_host(s.watched[p.input], p.offset, p.length);
      break;
    case CopyDirection::host_to_host: break;
  }
}

json transfer_report(const std::vector<DeviceBuffer>& buffers) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  json inputs = json::array(), outputs = json::array();
  for (size_t i = 0; i < buffers.size() && i < s.watched.size(); ++i) {
    const DeviceBuffer& b = buffers[i];
    const Watched& w = s.watched[i];
    const size_t elements = w.bytes / w.element;
    if (w.input) {
      const size_t reached = static_cast<size_t>(std::count(w.reached_host.begin(), w.reached_host.end(), 1));
      if (reached) inputs.push_back(buffer_entry(b.name, std::min(reached, elements), elements, -1));
      continue;
    }
    // An output element counts when its final value is the one a host copy left there.
    const bool touched = std::any_of(s.host_copies.begin(), s.host_copies.end(), [&](const HostCopy& c) {
      return c.begin < w.begin + w.bytes && c.begin + c.bytes.size() > w.begin;
    });
    if (!touched) continue;
    std::vector<unsigned char> from_host(elements, 0);
    const auto* final_bytes = static_cast<const unsigned char*>(b.host.data());
    for (const HostCopy& c : s.host_copies) {
      const uintptr_t lo = std::max(c.begin, w.begin), hi = std::min(c.begin + c.bytes.size(), w.begin + w.bytes);
      if (lo >= hi) continue;
      for (size_t e = (lo - w.begin + w.element - 1) / w.element; (e + 1) * w.element <= hi - w.begin; ++e) {
        const size_t at = e * w.element;
        if (std::memcmp(final_bytes + at, c.bytes.data() + (w.begin + at - c.begin), w.element) == 0) from_host[e] = 1;
      }
    }
    const auto first = std::find(from_host.begin(), from_host.end(), 1);
    if (first == from_host.end()) continue;
    const size_t count = static_cast<size_t>(std::count(from_host.begin(), from_host.end(), 1));
    outputs.push_back(buffer_entry(b.name, count, elements, first - from_host.begin()));
  }
  return {{"inputs_to_host", inputs}, {"outputs_from_host", outputs}};
}

}  // namespace gpulab::harness
