// Parsing lab.json's "bench" object and resolving its cases.
#include "bench_spec.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>

#include "lab/size_expression.hpp"

namespace gpulab::bench {
namespace {
using nlohmann::json;

struct Where {
  std::string text;
  [[noreturn]] void fail(const std::string& what) const { throw LabSpecError(text + ": " + what); }
  Where sub(const std::string& more) const { return Where{text + ", " + more}; }
};

std::string need_string(const json& j, const char* key, const Where& w) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_string()) {
    w.fail(std::string("needs a string field '") + key + "'");
  }
  return j.at(key).get<std::string>();
}

Implementation parse_implementation(const json& j, const Where& w) {
  Implementation i;
  i.name = need_string(j, "name", w);
  i.file = need_string(j, "file", w);
  if (j.contains("libraries")) {
    if (!j.at("libraries").is_array()) w.fail("'libraries' must be a list of library names, e.g. [\"cublas\"]");
    for (const json& l : j.at("libraries")) i.libraries.push_back(l.get<std::string>());
  }
  return i;
}

void check_expression(const std::string& expr, const PartSpec& part, const Where& w) {
  std::map<std::string, long long> probe;
  for (const ParamSpec& p : part.params)
    if (p.role == ParamRole::size) probe[p.name] = 3;
  try {
    evaluate_size_expression(expr, probe);
  } catch (const ExpressionError& e) {
    w.fail(e.what());
  }
}

BenchCaseSpec parse_case(const json& j, const PartSpec& part, const Where& w) {
  BenchCaseSpec c;
  c.label = need_string(j, "label", w);
  const Where cw = w.sub("case '" + c.label + "'");
  if (!j.contains("sizes") || !j.at("sizes").is_object()) cw.fail("needs 'sizes', e.g. {\"n\": 268435456}");
  for (const auto& [k, v] : j.at("sizes").items()) {
    const ParamSpec* p = part.param(k);
    if (!p || p->role != ParamRole::size) cw.fail("'" + k + "' is not a size parameter of part '" + part.name + "'");
    if (!v.is_number_integer() || v.get<long long>() < 1) cw.fail("size '" + k + "' must be a positive integer");
    c.sizes[k] = v.get<long long>();
  }
  for (const ParamSpec& p : part.params) {
    if (p.role == ParamRole::size && !c.sizes.count(p.name)) cw.fail("misses the size '" + p.name + "'");
    if (p.role == ParamRole::input) {
      if (!j.contains("inputs") || !j.at("inputs").contains(p.name)) {
        cw.fail("misses the distribution of input '" + p.name + "' under 'inputs'");
      }
      c.inputs[p.name] = j.at("inputs").at(p.name);
    }
  }
  return c;
}

}  // namespace

BenchSpec parse_bench_spec(const LabSpec& lab, const json& lab_json) {
  const Where w{lab.file.string() + ", \"bench\""};
  if (!lab_json.contains("bench") || !lab_json.at("bench").is_object()) {
    Where{lab.file.string()}.fail("has no \"bench\" object, so `gpulab bench` does not know what to time for lab '" +
                                  lab.lab + "' (see docs/lab-format.md)");
  }
  const json& b = lab_json.at("bench");
  BenchSpec s;
  if (!b.contains("baseline")) w.fail("needs a 'baseline' ({\"name\": ..., \"file\": ...})");
  s.baseline = parse_implementation(b.at("baseline"), w.sub("baseline"));
  s.baseline_computes_output = b.at("baseline").value("computes_output", true);
  if (b.contains("check_with")) s.checker = parse_implementation(b.at("check_with"), w.sub("check_with"));
  if (!s.baseline_computes_output && !s.checker && !lab.checker_file.empty()) {
    s.checker = Implementation{"checker", lab.checker_file, {}};  // the lab's own checker (lab.json "checker")
  }
  if (!s.baseline_computes_output && !s.checker) {
    w.fail("the baseline computes no output ('computes_output': false), so 'check_with' (or the lab's \"checker\") "
           "must name an implementation whose output the others are checked against");
  }
  if (b.contains("progression")) {
    if (!b.at("progression").is_array()) w.fail("'progression' must be a list of {\"name\", \"file\"}");
    for (const json& p : b.at("progression")) s.progression.push_back(parse_implementation(p, w.sub("progression")));
  }
  if (!b.contains("parts") || !b.at("parts").is_object()) w.fail("needs 'parts': {part name: {\"cases\": [...]}}");
  for (const auto& [name, pj] : b.at("parts").items()) {
    const Where pw = w.sub("part '" + name + "'");
    const PartSpec* part = nullptr;
    for (const PartSpec& p : lab.parts)
      if (p.name == name) part = &p;
    if (!part) pw.fail("lab '" + lab.lab + "' has no such part");
    BenchPartSpec bp;
    bp.part = name;
    bp.flops = pj.value("flops", "");
    bp.error_depth = pj.value("error_depth", part->performance ? part->performance->error_depth : std::string());
    if (!bp.flops.empty()) check_expression(bp.flops, *part, pw.sub("flops"));
    if (part->check.kind == "float_bound") {
      if (bp.error_depth.empty()) {
        pw.fail("float outputs need 'error_depth' (the depth of the error bound, e.g. \"log2(n)\" or \"k\"), here or in "
                "the part's \"performance\"");
      }
      check_expression(bp.error_depth, *part, pw.sub("error_depth"));
    }
    if (!pj.contains("cases") || !pj.at("cases").is_array() || pj.at("cases").empty()) {
      pw.fail("needs a non-empty list 'cases'");
    }
    for (const json& c : pj.at("cases")) bp.cases.push_back(parse_case(c, *part, pw));
    s.parts.push_back(std::move(bp));
  }
  // In the order of lab.json's "parts" (a JSON object has no order of its own).
  std::vector<BenchPartSpec> ordered;
  for (const PartSpec& p : lab.parts)
    for (BenchPartSpec& bp : s.parts)
      if (bp.part == p.name) ordered.push_back(std::move(bp));
  s.parts = std::move(ordered);
  return s;
}

BenchSpec load_bench_spec(const LabSpec& lab) {
  std::ifstream in(lab.file);
  if (!in) throw LabSpecError("cannot read " + lab.file.string());
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw LabSpecError(lab.file.string() + ": not valid JSON: " + e.what());
  }
  return parse_bench_spec(lab, j);
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
      throw std::invalid_argument("--sizes '" + text + "': write NAME=VALUE pairs separated by commas, e.g. "
                                  "--sizes n=1048576 or --sizes m=4096,n=4096,k=4096 (positive integers)");
    }
    out[item.substr(0, eq)] = value;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<ResolvedCase> resolve_cases(const LabSpec& lab, const BenchSpec& spec, const std::vector<std::string>& parts,
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
