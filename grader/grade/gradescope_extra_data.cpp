// The unrounded detail of Gradescope's results.json (docs/results-format.md, "extra_data").
#include "gradescope_extra_data.hpp"

namespace gpulab::grade {
using nlohmann::json;

json case_extra_data(const CaseResult& c) {
  json sizes = json::object();
  for (const auto& [name, value] : c.sizes) sizes[name] = value;
  json extra = {{"part", c.part},           {"case_id", c.id},
                {"family", c.family},       {"hidden", c.hidden},
                {"sizes", sizes},           {"score", c.score},
                {"max_score", c.max_score}, {"status", c.passed ? "passed" : c.run ? "failed" : "not_run"}};
  if (c.run) extra["seconds"] = c.seconds;
  if (c.stopped_by != StopReason::none) extra["stopped_by"] = c.stopped_by;
  return extra;
}

json ungraded_part_extra_data(const PartResult& p, const std::string& status) {
  return {{"part", p.name}, {"score", 0}, {"max_score", p.max_score}, {"status", status}};
}

json submission_extra_data(const GradeResult& g) {
  json parts = json::array();
  for (const PartResult& p : g.parts)
    parts.push_back({{"name", p.name}, {"score", p.score}, {"max_score", p.max_score}});
  json extra = {{"lab", g.lab},         {"lab_version", g.lab_version},
                {"backend", g.backend}, {"compiled", g.compiled},
                {"score", g.score},     {"max_score", g.max_score},
                {"seconds", g.seconds}, {"compile_seconds", g.compile_seconds},
                {"parts", parts}};
  if (!g.review.empty()) {
    json review = json::array();
    for (const ReviewNote& n : g.review) review.push_back({{"part", n.part}, {"reason", n.reason}});
    extra["review"] = review;
  }
  return extra;
}

}  // namespace gpulab::grade
