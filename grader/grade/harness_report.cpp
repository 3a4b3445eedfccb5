// Implementation of harness_report.hpp.
#include "grade/harness_report.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "data/quantile.hpp"
#include "harness/transfer_routes.hpp"

namespace gpulab::grade {
using nlohmann::json;

namespace {
constexpr size_t kMaxMessageBytes = 64 * 1024;
constexpr size_t kMaxNameBytes = 256;
constexpr double kMaxSeconds = 1e6;  // no run lasts this long
constexpr double kMaxBytes = 1e15;   // nor moves this much
const NumberRange kSeconds = NumberRange::between(0, kMaxSeconds);

std::vector<std::string> buffer_names(const PartSpec* part, bool inputs, bool outputs) {
  std::vector<std::string> names;
  if (!part) return names;
  for (const ParamSpec& p : part->params) {
    if ((p.role == ParamRole::input && inputs) || (p.role == ParamRole::output && outputs)) names.push_back(p.name);
  }
  return names;
}

// A list of distinct names, each one of `allowed`.
std::vector<std::string> name_list(const JsonReader& r, const std::vector<std::string>& allowed, const char* what) {
  std::vector<std::string> out;
  for (const JsonReader& e : r.elements(what, 0, allowed.size())) {
    const std::string name = e.one_of(allowed);
    if (std::find(out.begin(), out.end(), name) != out.end()) e.fail("names '" + name + "' twice");
    out.push_back(name);
  }
  return out;
}

// The "transfers" object: bytes per route, each route known and named once.
TransferReport read_transfers(const JsonReader& r) {
  r.expect_object({"routes"}, "the bytes that reached host memory");
  std::vector<std::string> ids;
  for (const harness::TransferRoute& route : harness::kTransferRoutes) ids.emplace_back(route.id);
  TransferReport t;
  for (const JsonReader& e : r.at("routes", "a list").elements("routes", 0, ids.size())) {
    e.expect_object({"route", "bytes"}, "a route's bytes");
    RouteBytes b;
    b.route = e.one_of("route", ids);
    for (const RouteBytes& seen : t.routes)
      if (seen.route == b.route) e.fail("names route '" + b.route + "' twice");
    b.bytes =
        static_cast<unsigned long long>(e.at("bytes", "a number of bytes").whole(NumberRange::between(0, kMaxBytes)));
    t.routes.push_back(b);
  }
  return t;
}
}  // namespace

unsigned long long TransferReport::total_bytes() const {
  unsigned long long total = 0;
  for (const RouteBytes& r : routes) total += r.bytes;
  return total;
}

namespace {
CallInspection read_inspection(const JsonReader& r, const PartSpec* part) {
  CallInspection c;
  const std::vector<std::string> inputs = buffer_names(part, true, false);
  const std::vector<std::string> all = buffer_names(part, true, true);
  if (auto m = r.find("inputs_modified")) c.inputs_modified = name_list(*m, inputs, "input names");
  if (auto g = r.find("guard_overruns")) {
    for (const JsonReader& e : g->elements("guard overruns", 0, 2 * all.size())) {
      e.expect_object({"buffer", "where", "offset"}, "a guard overrun");
      GuardOverrun o;
      o.buffer = e.one_of("buffer", all);
      o.where = e.one_of("where", {"before", "after"});
      o.offset = e.at("offset", "a byte offset").whole(NumberRange::at_least(0));
      c.guard_overruns.push_back(o);
    }
  }
  if (auto t = r.find("transfers")) c.transfers = read_transfers(*t);
  return c;
}

DeviceIdentity read_device(const JsonReader& r) {
  r.expect_object({"name", "uuid", "l2_bytes", "multiprocessors", "compute_capability", "clock_khz", "emulated"},
                  "the device's identity");
  DeviceIdentity d;
  const NumberRange count = NumberRange::between(0, 1e12).whole_numbers();
  if (auto v = r.find("name")) d.name = v->any_text(kMaxNameBytes);
  if (auto v = r.find("uuid")) d.uuid = v->any_text(kMaxNameBytes);
  if (auto v = r.find("compute_capability")) d.compute_capability = v->any_text(kMaxNameBytes);
  if (auto v = r.find("l2_bytes")) d.l2_bytes = v->whole(count);
  if (auto v = r.find("multiprocessors")) d.multiprocessors = v->whole(count);
  if (auto v = r.find("clock_khz")) d.clock_khz = v->whole(count);
  d.emulated = r.boolean_or("emulated", false);
  return d;
}

TimingReport read_timing(const JsonReader& r, long long max_calls) {
  r.expect_object(
      {"median_s", "min_s", "max_s", "spread", "runs", "calls", "l2_flush_bytes", "l2_persisting_reset", "samples_s"},
      "the timed runs");
  TimingReport t;
  t.median_s = r.number("median_s", kSeconds);
  t.min_s = r.number("min_s", kSeconds);
  t.max_s = r.number("max_s", kSeconds);
  t.spread = r.number("spread", NumberRange::between(0, 1e9));
  const NumberRange calls = NumberRange::between(0, static_cast<double>(max_calls)).whole_numbers();
  t.runs = r.at("runs", calls.describe()).whole(calls);
  t.calls = r.at("calls", calls.describe()).whole(calls);
  t.l2_flush_bytes = r.number("l2_flush_bytes", NumberRange::between(0, kMaxBytes));
  t.l2_persisting_reset = r.at("l2_persisting_reset", "true or false").boolean();
  for (const JsonReader& s : r.at("samples_s", "a list of seconds").elements("seconds", 0, t.runs)) {
    t.samples_s.push_back(s.number(kSeconds));
  }
  if (static_cast<long long>(t.samples_s.size()) != t.runs) {
    r.fail("says " + std::to_string(t.runs) + " runs but lists " + std::to_string(t.samples_s.size()) + " samples");
  }
  if (t.runs > t.calls) r.fail("says more runs than calls");
  if (t.runs > 0 && !(t.min_s <= t.median_s && t.median_s <= t.max_s)) {
    r.fail("its minimum, median and maximum are not in order");
  }
  for (double s : t.samples_s) {
    if (s < t.min_s || s > t.max_s) r.fail("a sample lies outside its minimum and maximum");
  }
  // The median is the time scored, and the samples are what the grader's own clock bounds
  // (timing_bound.hpp): the one must be the other's median, as the harness computes it.
  if (!t.samples_s.empty()) {
    const double median = quantile(t.samples_s, 0.5);
    if (std::fabs(median - t.median_s) > 1e-9 * std::max(median, 1e-9)) {
      r.fail("says its median is " + std::to_string(t.median_s) + " s where its samples' median is " +
             std::to_string(median) + " s");
    }
  }
  return t;
}

VerificationReport read_verification(const JsonReader& r, long long max_calls) {
  r.expect_object({"status", "calls_checked", "reason"}, "the check of the timed calls");
  VerificationReport v;
  const std::string s = r.one_of("status", {"checked", "unavailable", "tampered"});
  v.status = s == "checked"    ? VerificationStatus::checked
             : s == "tampered" ? VerificationStatus::tampered
                               : VerificationStatus::unavailable;
  const NumberRange calls = NumberRange::between(0, static_cast<double>(max_calls)).whole_numbers();
  v.calls_checked = r.at("calls_checked", calls.describe()).whole(calls);
  if (auto reason = r.find("reason")) v.reason = reason->any_text(kMaxMessageBytes);
  return v;
}

HarnessStatus read_status(const JsonReader& r) {
  const std::string s =
      r.one_of("status", {"started", "ok", "missing_function", "cuda_error", "timed_output_wrong", "harness_error"});
  if (s == "started") return HarnessStatus::started;
  if (s == "ok") return HarnessStatus::ok;
  if (s == "missing_function") return HarnessStatus::missing_function;
  if (s == "cuda_error") return HarnessStatus::cuda_error;
  if (s == "timed_output_wrong") return HarnessStatus::timed_output_wrong;
  return HarnessStatus::harness_error;
}
}  // namespace

std::string to_string(HarnessStatus s) {
  switch (s) {
    case HarnessStatus::started: return "started";
    case HarnessStatus::ok: return "ok";
    case HarnessStatus::missing_function: return "missing_function";
    case HarnessStatus::cuda_error: return "cuda_error";
    case HarnessStatus::timed_output_wrong: return "timed_output_wrong";
    case HarnessStatus::harness_error: return "harness_error";
  }
  return "?";
}

HarnessReport read_harness_report(const std::string& text, const std::string& file, const ReportExpectations& e) {
  if (text.size() > kMaxReportBytes) {
    throw UntrustedInputError(file + ": " + std::to_string(text.size()) + " bytes, more than the " +
                              std::to_string(kMaxReportBytes) + " a report of the harness can take");
  }
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& ex) {
    throw UntrustedInputError(file + ": not JSON (" + ex.what() + ")");
  }
  const JsonReader r(doc, file, JsonReader::Source::untrusted);
  r.expect_object(
      {"part", "status", "message", "cuda_error", "seconds", "kernel_launches", "inputs_modified", "guard_overruns",
       "transfers", "device", "copy_bandwidth_bytes_per_s", "timing", "verification", "recheck"},
      "the harness's report");
  HarnessReport h;
  const std::string part = r.at("part", "the part's name").any_text(kMaxNameBytes);
  if (e.part && part != e.part->name) r.at("part", "").fail("names part '" + part + "', not '" + e.part->name + "'");
  h.status = read_status(r);
  if (auto m = r.find("message")) h.message = m->any_text(kMaxMessageBytes);
  if (auto m = r.find("cuda_error")) h.cuda_error = m->any_text(kMaxMessageBytes);
  if (auto s = r.find("seconds")) h.seconds = s->number(kSeconds);
  if (auto k = r.find("kernel_launches")) {
    h.kernel_launches = k->whole(NumberRange::between(-1, 1e12));
  }
  h.call = read_inspection(r, e.part);
  if (auto d = r.find("device")) h.device = read_device(*d);
  if (auto b = r.find("copy_bandwidth_bytes_per_s")) h.copy_bandwidth = b->number(NumberRange::between(0, kMaxBytes));
  if (auto t = r.find("timing")) {
    if (!e.timing) t->fail("was not asked for");
    h.timing = read_timing(*t, e.max_timed_calls);
  }
  if (auto v = r.find("verification")) {
    if (!e.timing) v->fail("was not asked for");
    h.verification = read_verification(*v, e.max_timed_calls);
    if (h.timing && h.verification->calls_checked > h.timing->calls) v->fail("checked more calls than were made");
  }
  if (auto c = r.find("recheck")) {
    if (!e.recheck) c->fail("was not asked for");
    c->expect_object({"inputs_modified", "guard_overruns", "transfers"}, "the check after the recheck call");
    h.recheck = read_inspection(*c, e.part);
  }
  if (h.status == HarnessStatus::ok && !e.probe) {
    // A finished run says what it was asked: a checked call, and the timing and recheck it was asked for.
    if (e.part && !r.has("kernel_launches")) r.fail("says ok but not how many kernels were launched");
    if (e.part && !r.has("inputs_modified")) r.fail("says ok but not whether the inputs were modified");
    if (e.timing && (!h.timing || !h.verification)) r.fail("says ok but has no timing or its check");
    if (e.recheck && !h.recheck) r.fail("says ok but has no recheck");
  }
  return h;
}

}  // namespace gpulab::grade
