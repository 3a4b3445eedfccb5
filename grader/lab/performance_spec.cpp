// lab.json's "performance" object of a part: parsing, validation, and the
// piecewise-linear score it defines.
#include "lab/performance_spec.hpp"

#include <cctype>

#include <fmt/format.h>

#include "lab/case_inputs.hpp"
#include "lab/size_expression.hpp"

namespace gpulab {
namespace {
using nlohmann::json;

std::vector<ScorePoint> parse_points(const JsonReader& r) {
  std::vector<ScorePoint> out;
  for (const JsonReader& p : r.elements("[x, fraction] pairs such as [[0.2, 0.0], [0.85, 1.0]]")) {
    if (!p.value().is_array() || p.value().size() != 2) {
      p.fail("must be a pair of numbers [x, fraction], e.g. [0.5, 0.6], not " + JsonReader::describe(p.value()));
    }
    const std::vector<JsonReader> pair = p.elements("numbers", 2);
    ScorePoint s{pair[0].number(NumberRange::at_least(0)), pair[1].number(NumberRange::between(0, 1))};
    if (!out.empty() && s.x <= out.back().x) {
      pair[0].fail("x values must increase from pair to pair: this one is not above the previous " +
                   JsonReader::describe(json(out.back().x)));
    }
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

PerformanceSpec parse_performance(const JsonReader& r, const PartSpec& part) {
  r.expect_object({"points", "sizes", "inputs", "work", "flops", "thresholds", "bandwidth_thresholds", "error_depth"},
                  "an object such as {\"points\": 15, \"sizes\": {...}, \"inputs\": {...}, \"thresholds\": [...]} "
                  "(docs/lab-format.md, \"performance\")");
  PerformanceSpec p;
  const std::string share = fmt::format("a number >= 0 and <= {:g} (a share of the part's points)", part.points);
  const JsonReader points = r.at("points", share);
  p.points = points.number(NumberRange::at_least(0));
  if (p.points > part.points) {
    points.fail("must be " + share + ", not " + JsonReader::describe(points.value()));
  }
  p.sizes = read_sizes(r.at("sizes", "the sizes of the timed case, e.g. {\"n\": 67108864}"), part);
  p.inputs = read_inputs(r.at("inputs", "a value distribution for every input of the timed case"), part);
  for (const auto& [name, d] : p.inputs) {
    // Every timed call gets inputs mixed element by element from two sets drawn from this
    // distribution; a distribution with one value would give every call the same inputs.
    const bool one_value =
        d.at("dist") == "constant" || (d.contains("min") && d.contains("max") && d.at("min") == d.at("max"));
    if (one_value) {
      r.at("inputs", "")
          .at(name, "")
          .fail(
              "a distribution with a single value: every timed call would see the same inputs "
              "(and a submission could reuse its results); give it a range");
    }
  }
  p.work = r.one_of_or("work", "bytes", {"bytes", "flops"});
  if (p.work == "flops") {
    for (const JsonReader& f : r.at("flops", "a list of factors such as [2, \"m\", \"n\", \"k\"] (work 'flops')")
                                   .elements("factors (whole numbers or size names)")) {
      if (f.value().is_string()) {
        const std::string name = f.text();
        if (!p.sizes.count(name))
          f.fail("'" + name + "' is not a size of the timed case: use a size name or a whole number");
        p.flops.push_back(name);
      } else {
        p.flops.push_back(std::to_string(f.whole(NumberRange::at_least(1))));
      }
    }
  } else if (r.has("flops")) {
    r.at("flops", "").fail("'flops' is only read with \"work\": \"flops\": remove it, or set work to 'flops'");
  }
  p.thresholds = parse_points(r.at("thresholds", "[speed ratio, fraction] pairs such as [[0.2, 0.0], [0.85, 1.0]]"));
  if (auto b = r.find("bandwidth_thresholds")) p.bandwidth_thresholds = parse_points(*b);
  if (auto depth = r.find("error_depth")) {
    p.error_depth = depth->text();
    std::map<std::string, long long> probe;  // every size name, to find unknown ones
    for (const ParamSpec& q : part.params)
      if (q.role == ParamRole::size) probe[q.name] = 3;
    try {
      evaluate_size_expression(p.error_depth, probe);
    } catch (const ExpressionError& e) {
      depth->fail(e.what());
    }
  } else if (part.check.kind == "float_bound") {
    r.fail(
        "float outputs need 'error_depth', the depth of the error bound over the sizes (e.g. \"log2(n)\" for a sum, "
        "\"k\" for a dot product of length k), so that every timed call's output can be checked against the lab's "
        "checker: add it");
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
