// lab.json's "performance" object of a part: parsing, validation, and the
// piecewise-linear score it defines.
#include "lab/performance_spec.hpp"

#include <cctype>

#include "lab/size_expression.hpp"

namespace gpulab {
namespace {
using nlohmann::json;

std::vector<ScorePoint> parse_points(const json& j, const std::string& key, const std::string& where) {
  std::vector<ScorePoint> out;
  if (!j.contains(key)) return out;
  const json& list = j.at(key);
  const std::string w = where + ", performance '" + key + "'";
  if (!list.is_array() || list.empty()) throw LabSpecError(w + ": must be a non-empty list of [x, fraction] pairs");
  for (const json& p : list) {
    if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) {
      throw LabSpecError(w + ": each entry must be a pair of numbers [x, fraction], e.g. [0.5, 0.6]");
    }
    ScorePoint s{p[0].get<double>(), p[1].get<double>()};
    if (s.fraction < 0 || s.fraction > 1) throw LabSpecError(w + ": fractions must lie between 0 and 1");
    if (s.x < 0) throw LabSpecError(w + ": x values must not be negative");
    if (!out.empty() && s.x <= out.back().x) throw LabSpecError(w + ": x values must increase");
    out.push_back(s);
  }
  return out;
}
}  // namespace

double PerformanceSpec::fraction_at(const std::vector<ScorePoint>& points, double x) {
  if (points.empty()) return 0;
  if (x <= points.front().x) return points.front().fraction;
  for (size_t i = 1; i < points.size(); ++i) {
    if (x <= points[i].x) {
      const ScorePoint& a = points[i - 1];
      const ScorePoint& b = points[i];
      return a.fraction + (b.fraction - a.fraction) * (x - a.x) / (b.x - a.x);
    }
  }
  return points.back().fraction;
}

std::vector<FamilySpec> PerformanceSpec::families() const {
  FamilySpec timed;
  timed.family = "timed";
  timed.is_public = false;
  timed.sizes = {sizes};
  timed.inputs = inputs;
  FamilySpec recheck = timed;
  recheck.family = "recheck";
  return {timed, recheck};
}

PerformanceSpec parse_performance(const json& j, const PartSpec& part, const std::string& where) {
  const std::string w = where + ", performance";
  if (!j.is_object()) throw LabSpecError(w + ": must be an object");
  PerformanceSpec p;
  if (!j.contains("points") || !j.at("points").is_number()) throw LabSpecError(w + ": missing number 'points'");
  p.points = j.at("points").get<double>();
  if (p.points < 0 || p.points > part.points) {
    throw LabSpecError(w + ": points must be between 0 and the part's " + std::to_string(part.points) +
                       " (they are a share of the part's points)");
  }
  if (!j.contains("sizes") || !j.at("sizes").is_object()) throw LabSpecError(w + ": missing object 'sizes' (the timed case)");
  for (auto it = j.at("sizes").begin(); it != j.at("sizes").end(); ++it) {
    if (!it.value().is_number_integer() || it.value().get<long long>() < 1) {
      throw LabSpecError(w + ": size '" + it.key() + "' must be a positive integer");
    }
    p.sizes[it.key()] = it.value().get<long long>();
  }
  for (const ParamSpec& q : part.params) {
    if (q.role == ParamRole::size && !p.sizes.count(q.name)) throw LabSpecError(w + ": 'sizes' has no value for '" + q.name + "'");
    if (q.role != ParamRole::input) continue;
    if (!j.contains("inputs") || !j.at("inputs").contains(q.name) || !j.at("inputs").at(q.name).contains("dist")) {
      throw LabSpecError(w + ": 'inputs' needs {\"dist\": ...} for input '" + q.name + "'");
    }
    p.inputs[q.name] = j.at("inputs").at(q.name);
    // Every timed call gets inputs mixed element by element from two sets drawn from this
    // distribution; a distribution with one value would give every call the same inputs.
    const json& d = p.inputs[q.name];
    const bool one_value = d.value("dist", "") == "constant" ||
                           (d.contains("min") && d.contains("max") && d.at("min") == d.at("max"));
    if (one_value) {
      throw LabSpecError(w + ": input '" + q.name + "' has a distribution with a single value, so every timed call "
                         "would see the same inputs (and a submission could reuse its results); give it a range");
    }
  }
  p.work = j.value("work", "bytes");
  if (p.work == "flops") {
    if (!j.contains("flops") || !j.at("flops").is_array() || j.at("flops").empty()) {
      throw LabSpecError(w + ": work 'flops' needs 'flops', a list of factors such as [2, \"m\", \"n\", \"k\"]");
    }
    for (const json& f : j.at("flops")) {
      if (f.is_number_unsigned()) {
        p.flops.push_back(std::to_string(f.get<unsigned long long>()));
      } else if (f.is_string() && p.sizes.count(f.get<std::string>())) {
        p.flops.push_back(f.get<std::string>());
      } else {
        throw LabSpecError(w + ": each 'flops' factor must be a whole number or a size name");
      }
    }
  } else if (p.work != "bytes") {
    throw LabSpecError(w + ": work must be 'bytes' (memory-bound) or 'flops' (compute-bound)");
  }
  p.thresholds = parse_points(j, "thresholds", where);
  if (p.thresholds.empty()) throw LabSpecError(w + ": missing 'thresholds' ([speed ratio, fraction] pairs)");
  p.bandwidth_thresholds = parse_points(j, "bandwidth_thresholds", where);
  if (j.contains("error_depth")) {
    if (!j.at("error_depth").is_string()) throw LabSpecError(w + ": 'error_depth' must be a string such as \"log2(n)\"");
    p.error_depth = j.at("error_depth").get<std::string>();
    std::map<std::string, long long> probe;  // every size name, to find unknown ones
    for (const ParamSpec& q : part.params)
      if (q.role == ParamRole::size) probe[q.name] = 3;
    try {
      evaluate_size_expression(p.error_depth, probe);
    } catch (const ExpressionError& e) {
      throw LabSpecError(w + ", 'error_depth': " + e.what());
    }
  } else if (part.check.kind == "float_bound") {
    throw LabSpecError(w + ": float outputs need 'error_depth', the depth of the error bound over the sizes (e.g. "
                       "\"log2(n)\" for a sum, \"k\" for a dot product of length k), so that every timed call's output "
                       "can be checked against the lab's checker");
  }
  return p;
}

double performance_work(const PerformanceSpec& perf, const PartSpec& part) {
  if (perf.work == "flops") {
    double w = 1;
    for (const std::string& f : perf.flops)
      w *= std::isdigit(static_cast<unsigned char>(f[0])) ? std::stod(f) : static_cast<double>(perf.sizes.at(f));
    return w;
  }
  return performance_bytes(perf, part);
}

double performance_bytes(const PerformanceSpec& perf, const PartSpec& part) {
  double bytes = 0;
  for (const ParamSpec& q : part.params) {
    if (q.role == ParamRole::size) continue;
    double count = 1;
    for (size_t d : q.resolve_shape(perf.sizes)) count *= static_cast<double>(d);
    bytes += count * static_cast<double>(dtype_size(q.dtype));
  }
  return bytes;
}

}  // namespace gpulab
