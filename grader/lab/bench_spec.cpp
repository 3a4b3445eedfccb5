// Parsing lab.json's "bench" object and resolving its cases.
#include "bench_spec.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "lab/case_inputs.hpp"
#include "lab/size_expression.hpp"

namespace gpulab::bench {
namespace {
using nlohmann::json;

Implementation parse_implementation(const JsonReader& r, bool is_baseline) {
  std::vector<std::string> keys = {"name", "file", "libraries"};
  if (is_baseline) keys.push_back("computes_output");
  r.expect_object(keys, "an implementation such as {\"name\": \"CUB\", \"file\": \"reference/<lab>/baseline.cu\"}");
  Implementation i;
  i.name = r.text("name");
  i.file = r.text("file");
  if (auto libs = r.find("libraries")) {
    for (const JsonReader& l : libs->elements("library names, e.g. [\"cublas\"]", 0)) i.libraries.push_back(l.text());
  }
  return i;
}

void check_expression(const JsonReader& r, const std::string& expr, const PartSpec& part) {
  std::map<std::string, long long> probe;
  for (const ParamSpec& p : part.params)
    if (p.role == ParamRole::size) probe[p.name] = 3;
  try {
    evaluate_size_expression(expr, probe);
  } catch (const ExpressionError& e) {
    r.fail(e.what());
  }
}

BenchCaseSpec parse_case(const JsonReader& bench_case, const PartSpec& part) {
  const JsonReader r = bench_case.named_by("label", "case");
  r.expect_object({"label", "sizes", "inputs"},
                  "a case such as {\"label\": \"uniform\", \"sizes\": {...}, \"inputs\": {...}}");
  BenchCaseSpec c;
  c.label = r.text("label");
  const JsonReader& cr = r;
  c.sizes = read_sizes(cr.at("sizes", "every size of the part, e.g. {\"n\": 268435456}"), part);
  c.inputs = read_inputs(cr.at("inputs", "a value distribution for every input"), part);
  return c;
}

}  // namespace

BenchSpec read_bench_spec(const LabSpec& lab, const JsonReader& b) {
  b.expect_object({"baseline", "check_with", "progression", "parts"},
                  "an object {\"baseline\": ..., \"progression\": [...], \"parts\": {...}} (docs/lab-format.md)");
  BenchSpec s;
  const JsonReader baseline = b.at("baseline", "{\"name\": ..., \"file\": ...}, the library implementation");
  s.baseline = parse_implementation(baseline, true);
  s.baseline_computes_output = baseline.boolean_or("computes_output", true);
  if (auto c = b.find("check_with")) s.checker = parse_implementation(*c, false);
  if (!s.baseline_computes_output && !s.checker && !lab.checker_file.empty()) {
    s.checker = Implementation{"checker", lab.checker_file, {}};  // the lab's own checker (lab.json "checker")
  }
  if (!s.baseline_computes_output && !s.checker) {
    baseline.at("computes_output", "")
        .fail(
            "the baseline computes no output, so 'check_with' (or the lab's \"checker\") must name an implementation "
            "whose output the others are checked against: add one");
  }
  if (auto prog = b.find("progression")) {
    for (const JsonReader& p : prog->elements("implementations {\"name\", \"file\"}", 0)) {
      s.progression.push_back(parse_implementation(p, false));
    }
  }
  std::vector<std::string> part_names;
  for (const PartSpec& p : lab.parts) part_names.push_back(p.name);
  const JsonReader parts = b.at("parts", "{part name: {\"cases\": [...]}}");
  parts.expect_object(part_names, "an object {part name: {\"cases\": [...]}} over the lab's parts (" +
                                      word_list(part_names, ", ") + ")");
  for (const PartSpec& part : lab.parts) {  // in the order of lab.json's "parts" (a JSON object has no order)
    const auto pj = parts.find(part.name);
    if (!pj) continue;
    pj->expect_object({"flops", "error_depth", "cases"},
                      "an object {\"cases\": [...], \"flops\": ..., \"error_depth\": ...}");
    BenchPartSpec bp;
    bp.part = part.name;
    if (auto f = pj->find("flops")) {
      bp.flops = f->text();
      check_expression(*f, bp.flops, part);
    }
    if (auto d = pj->find("error_depth")) {
      bp.error_depth = d->text();
      check_expression(*d, bp.error_depth, part);
    } else if (part.performance) {
      bp.error_depth = part.performance->error_depth;  // checked with the part's "performance"
    }
    if (part.check.kind == "float_bound" && bp.error_depth.empty()) {
      pj->fail(
          "float outputs need 'error_depth' (the depth of the error bound, e.g. \"log2(n)\" or \"k\"), here or in "
          "the part's \"performance\": add it");
    }
    for (const JsonReader& c : pj->at("cases", "a list of benchmark cases").elements("cases")) {
      bp.cases.push_back(parse_case(c, part));
    }
    s.parts.push_back(std::move(bp));
  }
  return s;
}

BenchSpec parse_bench_spec(const LabSpec& lab, const json& lab_json) {
  const JsonReader doc(lab_json, lab.file.string());
  if (!doc.has("bench")) {
    doc.fail("has no \"bench\" object, so `gpulab bench` does not know what to time for lab '" + lab.lab +
             "': add one (see docs/lab-format.md)");
  }
  return read_bench_spec(lab, doc.at("bench", ""));
}

BenchSpec load_bench_spec(const LabSpec& lab) {
  json doc = json::object();
  if (!lab.bench.is_null()) doc["bench"] = lab.bench;
  return parse_bench_spec(lab, doc);
}

std::map<std::string, long long> parse_size_override(const std::string& text) {
  std::map<std::string, long long> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const size_t eq = item.find('=');
    long long value = 0;
    size_t used = 0;
    try {
      if (eq != std::string::npos && eq > 0) value = std::stoll(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (eq == std::string::npos || eq == 0 || used == 0 || used != item.size() - eq - 1 || value < 1) {
      throw std::invalid_argument("--sizes '" + text +
                                  "': write NAME=VALUE pairs separated by commas, e.g. "
                                  "--sizes n=1048576 or --sizes m=4096,n=4096,k=4096 (positive integers)");
    }
    out[item.substr(0, eq)] = value;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<ResolvedCase> resolve_cases(const LabSpec& lab, const BenchSpec& spec,
                                        const std::vector<std::string>& parts,
                                        const std::vector<std::map<std::string, long long>>& size_overrides) {
  std::vector<ResolvedCase> out;
  std::vector<bool> override_used(size_overrides.size(), false);
  for (const std::string& p : parts) {
    bool known = false;
    for (const BenchPartSpec& bp : spec.parts) known = known || bp.part == p;
    if (!known) {
      std::string names;
      for (const BenchPartSpec& bp : spec.parts) names += (names.empty() ? "" : ", ") + bp.part;
      throw std::invalid_argument("lab '" + lab.lab + "' has no benchmarked part '" + p + "' (parts: " + names + ")");
    }
  }
  for (const BenchPartSpec& bp : spec.parts) {
    if (!parts.empty() && std::find(parts.begin(), parts.end(), bp.part) == parts.end()) continue;
    const PartSpec& part = lab.part(bp.part);
    // The size sets of this part: its own cases, or each case under each override that fits.
    std::vector<std::pair<const BenchCaseSpec*, std::map<std::string, long long>>> runs;
    bool any_override = false;
    for (size_t o = 0; o < size_overrides.size(); ++o) {
      bool fits = true;
      for (const auto& [k, v] : size_overrides[o]) {
        const ParamSpec* q = part.param(k);
        fits = fits && q && q->role == ParamRole::size;
      }
      if (!fits) continue;
      any_override = true;
      override_used[o] = true;
      for (const BenchCaseSpec& c : bp.cases) {
        auto sizes = c.sizes;
        for (const auto& [k, v] : size_overrides[o]) sizes[k] = v;
        runs.push_back({&c, sizes});
      }
    }
    if (!any_override) {
      if (!size_overrides.empty()) continue;  // the overrides are for other parts
      for (const BenchCaseSpec& c : bp.cases) runs.push_back({&c, c.sizes});
    }
    for (const auto& [c, sizes] : runs) {
      ResolvedCase r;
      r.part = bp.part;
      r.label = c->label;
      r.sizes = sizes;
      r.exact = part.check.kind != "float_bound";
      if (!r.exact) {
        // Each of the two results compared (the checker's and the implementation's) is within
        // factor * 2^-24 * depth * sum|terms| of the exact value, as the lab's gold argues.
        r.tolerance = 2.0 * part.check.factor * std::ldexp(1.0, -24) * evaluate_size_expression(bp.error_depth, sizes);
      }
      if (!bp.flops.empty()) r.flops = evaluate_size_expression(bp.flops, sizes);
      r.params = json::array();
      for (const ParamSpec& p : part.params) {
        if (p.role == ParamRole::size) {
          r.params.push_back({{"name", p.name}, {"role", "size"}, {"value", sizes.at(p.name)}});
          continue;
        }
        const std::vector<size_t> shape = p.resolve_shape(sizes);
        size_t count = 1;
        for (size_t d : shape) count *= d;
        const double bytes = static_cast<double>(count) * static_cast<double>(dtype_size(p.dtype));
        r.bytes += bytes;
        json q = {{"name", p.name},
                  {"role", p.role == ParamRole::input ? "input" : "output"},
                  {"dtype", dtype_name(p.dtype)},
                  {"count", count},
                  {"bytes", bytes}};
        if (p.role == ParamRole::input) q["dist"] = c->inputs.at(p.name);
        else q["initial"] = p.initially_zero ? "zero" : "poison";
        r.params.push_back(q);
      }
      out.push_back(std::move(r));
    }
  }
  for (size_t o = 0; o < size_overrides.size(); ++o) {
    if (!override_used[o]) {
      std::string names;
      for (const auto& [k, v] : size_overrides[o]) names += (names.empty() ? "" : ",") + k;
      throw std::invalid_argument("--sizes " + names + ": no benchmarked part of lab '" + lab.lab +
                                  "' has all of these sizes (see `gpulab contract " + lab.lab + "`)");
    }
  }
  return out;
}

}  // namespace gpulab::bench
