// Formatting the bench result.
#include "bench_table.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gpulab::bench {
namespace {
using nlohmann::json;

std::string size_value(long long v) {
  if (v >= (1ll << 20) && (v & (v - 1)) == 0)
    return "2^" + std::to_string(static_cast<int>(std::log2(static_cast<double>(v))));
  return std::to_string(v);
}

struct Row {
  std::string part, label, sizes, impl, time, rate, ratio, check;
};

std::string pad(const std::string& s, size_t width) {
  // Column widths count characters, and the check marks are one character of three bytes.
  size_t shown = 0;
  for (unsigned char c : s) shown += (c & 0xC0) != 0x80;
  return s + std::string(width > shown ? width - shown : 0, ' ');
}
size_t shown_width(const std::string& s) {
  size_t shown = 0;
  for (unsigned char c : s) shown += (c & 0xC0) != 0x80;
  return shown;
}

}  // namespace

std::string format_sizes(const std::map<std::string, long long>& sizes, const std::vector<std::string>& order) {
  std::string s;
  for (const std::string& k : order) {
    auto it = sizes.find(k);
    if (it == sizes.end()) continue;
    s += (s.empty() ? "" : " ") + k + "=" + size_value(it->second);
  }
  return s;
}

bool bench_all_correct(const BenchReport& r) {
  for (const json& c : r.result.at("cases")) {
    if (c.contains("error")) return false;
    for (const json& row : c.at("rows")) {
      if (row.at("status") == "error") return false;
      if (row.value("check", "none") == "fail") return false;
    }
  }
  return true;
}

std::string format_bench_table(const BenchReport& r, bool markdown, const std::string& command,
                               const std::string& date) {
  const json& res = r.result;
  std::string out;
  const double copy = res.value("copy_bandwidth", 0.0);
  const std::string header = "device: " + res.value("device", std::string("?")) + " (" +
                             std::to_string(res.value("sms", 0)) + " SMs), device-to-device copy " +
                             fmt::format("{:.0f}", copy / 1e9) + " GB/s (read + write)";
  const std::string baseline_name = r.implementations.at(r.baseline).impl.name;
  if (markdown) {
    out += "Date: " + date + ". Command: `" + command + "`.\n" + header + "; baseline: " + baseline_name + ".\n\n";
  } else {
    out += "gpulab bench " + r.lab + " (" + date + ")\n" + header + "\nbaseline: " + baseline_name + "\n\n";
  }

  std::vector<Row> rows;
  std::vector<std::string> notes;
  const json& cases = res.at("cases");
  for (size_t ci = 0; ci < cases.size() && ci < r.cases.size(); ++ci) {
    const ResolvedCase& rc = r.cases[ci];
    std::vector<std::string> order;
    for (const json& p : rc.params)
      if (p.at("role") == "size") order.push_back(p.at("name"));
    const std::string sizes = format_sizes(rc.sizes, order);
    double base_time = 0;
    for (const json& row : cases[ci].at("rows"))
      if (row.at("implementation") == r.baseline && row.at("status") == "ok") base_time = row.at("median_s");
    for (const json& row : cases[ci].at("rows")) {
      const size_t ii = row.at("implementation");
      Row x{rc.part, rc.label, sizes, r.implementations.at(ii).impl.name, "", "", "", ""};
      const std::string status = row.at("status");
      if (status == "missing") {
        x.time = "(no function)";
        x.check = "-";
      } else if (status == "error") {
        x.time = "error";
        x.check = "✗";
        notes.push_back(rc.part + ", " + rc.label + ", " + x.impl + ": " + row.value("message", std::string("error")));
      } else {
        const double t = row.at("median_s");
        x.time = fmt::format("{:.3f} ms", t * 1e3);
        x.rate = rc.flops > 0 ? fmt::format("{:.0f} GFLOP/s", rc.flops / t / 1e9)
                              : fmt::format("{:.0f} GB/s", rc.bytes / t / 1e9);
        if (base_time > 0) x.ratio = fmt::format("{:.2f}x", base_time / t);
        const std::string check = row.value("check", "none");
        x.check = check == "pass" ? "✓" : check == "fail" ? "✗" : "-";
        if (row.contains("check_message")) {
          notes.push_back(rc.part + ", " + rc.label + ", " + x.impl + ": " +
                          row.at("check_message").get<std::string>());
        }
      }
      rows.push_back(x);
    }
    if (cases[ci].contains("error"))
      notes.push_back(rc.part + ", " + rc.label + ": " + cases[ci].at("error").get<std::string>());
  }

  const std::string rate_head = "GB/s or GFLOP/s";
  const std::vector<std::string> head = {
      "part", "case", "size", "implementation", "median", "throughput", "vs " + baseline_name, "ok"};
  std::vector<size_t> w(head.size());
  for (size_t i = 0; i < head.size(); ++i) w[i] = shown_width(head[i]);
  for (const Row& x : rows) {
    const std::string cols[] = {x.part, x.label, x.sizes, x.impl, x.time, x.rate, x.ratio, x.check};
    for (size_t i = 0; i < head.size(); ++i) w[i] = std::max(w[i], shown_width(cols[i]));
  }
  auto line = [&](const std::vector<std::string>& cols) {
    std::string s = markdown ? "|" : "";
    for (size_t i = 0; i < cols.size(); ++i) {
      if (markdown) s += " " + cols[i] + " |";
      else s += (i ? "  " : "") + (i + 1 == cols.size() ? cols[i] : pad(cols[i], w[i]));
    }
    return s + "\n";
  };
  out += line(head);
  if (markdown) {
    std::string sep = "|";
    for (size_t i = 0; i < head.size(); ++i) sep += (i >= 4 && i <= 6) ? "---:|" : "---|";
    out += sep + "\n";
  }
  for (const Row& x : rows) out += line({x.part, x.label, x.sizes, x.impl, x.time, x.rate, x.ratio, x.check});
  if (!notes.empty()) {
    out += "\n";
    for (const std::string& n : notes) out += (markdown ? "- " : "note: ") + n + "\n";
  }
  (void)rate_head;
  return out;
}

}  // namespace gpulab::bench
