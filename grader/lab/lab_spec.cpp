// Parsing and validation of lab.json.
#include "lab_spec.hpp"

#include "lab/performance_spec.hpp"

#include <cctype>
#include <fstream>
#include <set>

namespace gpulab {
namespace {
using nlohmann::json;

struct Ctx {
  std::string where;
  [[noreturn]] void fail(const std::string& what) const { throw LabSpecError(where + ": " + what); }
  Ctx sub(const std::string& more) const { return Ctx{where + ", " + more}; }
};

const json& need(const json& j, const char* key, const Ctx& c) {
  if (!j.is_object() || !j.contains(key)) c.fail(std::string("missing field '") + key + "'");
  return j.at(key);
}
std::string need_string(const json& j, const char* key, const Ctx& c) {
  const json& v = need(j, key, c);
  if (!v.is_string()) c.fail(std::string("field '") + key + "' must be a string");
  return v.get<std::string>();
}
double need_number(const json& j, const char* key, const Ctx& c) {
  const json& v = need(j, key, c);
  if (!v.is_number()) c.fail(std::string("field '") + key + "' must be a number");
  return v.get<double>();
}

ParamSpec parse_param(const json& j, const Ctx& c) {
  ParamSpec p;
  p.name = need_string(j, "name", c);
  const Ctx pc = c.sub("param '" + p.name + "'");
  const std::string role = need_string(j, "role", pc);
  if (role == "input") p.role = ParamRole::input;
  else if (role == "output") p.role = ParamRole::output;
  else if (role == "size") p.role = ParamRole::size;
  else pc.fail("unknown role '" + role + "' (use input, output or size)");
  if (p.role == ParamRole::size) {
    p.ctype = j.value("ctype", "int");
    if (p.ctype != "int" && p.ctype != "size_t") pc.fail("ctype must be 'int' or 'size_t'");
    return p;
  }
  try {
    p.dtype = parse_dtype(need_string(j, "dtype", pc));
  } catch (const std::invalid_argument& e) {
    pc.fail(e.what());
  }
  const json& shape = need(j, "shape", pc);
  if (!shape.is_array() || shape.empty()) pc.fail("shape must be a non-empty list of size names or numbers");
  for (const json& d : shape) {
    if (d.is_string()) p.shape.push_back(d.get<std::string>());
    else if (d.is_number_unsigned()) p.shape.push_back(std::to_string(d.get<unsigned long long>()));
    else pc.fail("shape entries must be size names or non-negative numbers");
  }
  if (j.contains("initial")) {
    const std::string init = j.at("initial").get<std::string>();
    if (init != "zero" && init != "poison") pc.fail("initial must be 'zero' or 'poison'");
    if (p.role != ParamRole::output) pc.fail("only outputs have an 'initial' value");
    p.initially_zero = init == "zero";
  }
  return p;
}

FamilySpec parse_family(const json& j, const PartSpec& part, const Ctx& c) {
  FamilySpec f;
  f.family = need_string(j, "family", c);
  const Ctx fc = c.sub("dataset family '" + f.family + "'");
  f.is_public = j.value("public", true);
  const json& sizes = need(j, "sizes", fc);
  if (!sizes.is_array() || sizes.empty()) fc.fail("sizes must be a non-empty list of {name: value} objects");
  for (const json& s : sizes) {
    std::map<std::string, long long> assignment;
    if (!s.is_object()) fc.fail("each sizes entry must be an object such as {\"n\": 1000}");
    for (auto it = s.begin(); it != s.end(); ++it) {
      if (!it.value().is_number_integer() || it.value().get<long long>() < 0) {
        fc.fail("size '" + it.key() + "' must be a non-negative integer");
      }
      assignment[it.key()] = it.value().get<long long>();
    }
    for (const ParamSpec& p : part.params) {
      if (p.role == ParamRole::size && !assignment.count(p.name)) fc.fail("a sizes entry has no value for '" + p.name + "'");
    }
    f.sizes.push_back(std::move(assignment));
  }
  const json& inputs = need(j, "inputs", fc);
  for (const ParamSpec& p : part.params) {
    if (p.role != ParamRole::input) continue;
    if (!inputs.contains(p.name)) fc.fail("no value distribution for input '" + p.name + "'");
    const json& d = inputs.at(p.name);
    if (!d.is_object() || !d.contains("dist")) fc.fail("input '" + p.name + "' needs {\"dist\": ...}");
    f.inputs[p.name] = d;
  }
  return f;
}

// A "limits" object on top of `inherited`, with errors that name where it is.
sandbox::ResourceLimits parse_limits_at(const json& j, const sandbox::ResourceLimits& inherited, const Ctx& c) {
  try {
    return sandbox::parse_limits(j, inherited);
  } catch (const std::invalid_argument& e) {
    c.fail(e.what());
  }
}

PartSpec parse_part_fields(const json& j, const Ctx& c, const sandbox::ResourceLimits& lab_limits);

// nlohmann's type errors (e.g. "public": "no") become errors that name the file and part.
PartSpec parse_part(const json& j, const Ctx& c, const sandbox::ResourceLimits& lab_limits) {
  try {
    return parse_part_fields(j, c, lab_limits);
  } catch (const json::exception& e) {
    const bool named = j.is_object() && j.contains("name") && j["name"].is_string();
    (named ? c.sub("part '" + j["name"].get<std::string>() + "'") : c)
        .fail(std::string("a field has the wrong type (") + e.what() + ")");
  }
}

PartSpec parse_part_fields(const json& j, const Ctx& c, const sandbox::ResourceLimits& lab_limits) {
  PartSpec p;
  p.name = need_string(j, "name", c);
  const Ctx pc = c.sub("part '" + p.name + "'");
  p.points = need_number(j, "points", pc);
  p.function = need_string(j, "function", pc);
  p.limits = lab_limits;
  if (j.contains("time_limit_s")) p.limits.wall_s = need_number(j, "time_limit_s", pc);
  if (j.contains("limits")) {
    if (j.at("limits").is_object() && j.at("limits").contains("compile_s")) {
      pc.fail("limit 'compile_s' is lab-wide: put it in the lab's \"limits\", not a part's");
    }
    p.limits = parse_limits_at(j.at("limits"), p.limits, pc.sub("limits"));
  }
  p.time_limit_s = p.limits.wall_s;
  const json& params = need(j, "params", pc);
  if (!params.is_array() || params.empty()) pc.fail("params must be a non-empty list");
  std::set<std::string> names;
  for (const json& pj : params) {
    p.params.push_back(parse_param(pj, pc));
    if (!names.insert(p.params.back().name).second) pc.fail("two params are named '" + p.params.back().name + "'");
  }
  for (const ParamSpec& ps : p.params) {
    for (const std::string& d : ps.shape) {
      if (!std::isdigit(static_cast<unsigned char>(d[0])) &&
          (!p.param(d) || p.param(d)->role != ParamRole::size)) {
        pc.fail("param '" + ps.name + "' has shape entry '" + d + "', which is not a size param");
      }
    }
  }
  const json& check = need(j, "check", pc);
  p.check.kind = need_string(check, "kind", pc.sub("check"));
  if (p.check.kind == "float_bound") {
    p.check.factor = need_number(check, "factor", pc.sub("check"));
  } else if (p.check.kind != "exact") {
    pc.fail("check kind must be 'exact' or 'float_bound'");
  }
  const json& datasets = need(j, "datasets", pc);
  if (!datasets.is_array() || datasets.empty()) pc.fail("datasets must be a non-empty list of families");
  for (const json& f : datasets) p.datasets.push_back(parse_family(f, p, pc));
  if (j.contains("performance")) p.performance = parse_performance(j.at("performance"), p, pc.where);
  return p;
}
}  // namespace

std::vector<size_t> ParamSpec::resolve_shape(const std::map<std::string, long long>& sizes) const {
  std::vector<size_t> out;
  for (const std::string& d : shape) {
    if (std::isdigit(static_cast<unsigned char>(d[0]))) {
      out.push_back(std::stoull(d));
    } else {
      auto it = sizes.find(d);
      if (it == sizes.end()) throw LabSpecError("param '" + name + "': no value for size '" + d + "'");
      out.push_back(static_cast<size_t>(it->second));
    }
  }
  return out;
}

const ParamSpec* PartSpec::param(const std::string& n) const {
  for (const ParamSpec& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

std::string PartSpec::signature() const {
  std::string s = "void " + function + "(";
  for (size_t i = 0; i < params.size(); ++i) {
    const ParamSpec& p = params[i];
    if (i) s += ", ";
    if (p.role == ParamRole::size) s += p.ctype + " " + p.name;
    else s += std::string(p.role == ParamRole::input ? "const " : "") + dtype_ctype(p.dtype) + "* " + p.name;
  }
  return s + ")";
}

const PartSpec& LabSpec::part(const std::string& name) const {
  std::string names;
  for (const PartSpec& p : parts) {
    if (p.name == name) return p;
    names += (names.empty() ? "" : ", ") + p.name;
  }
  throw LabSpecError("lab '" + lab + "' has no part '" + name + "' (its parts: " + names + ")");
}

double LabSpec::total_points() const {
  double t = 0;
  for (const PartSpec& p : parts) t += p.points;
  return t;
}

LabSpec parse_lab_fields(const json& j, const std::string& origin);

LabSpec parse_lab_spec(const json& j, const std::string& origin) {
  try {
    return parse_lab_fields(j, origin);
  } catch (const json::exception& e) {
    throw LabSpecError(origin + ": a field has the wrong type (" + e.what() + ")");
  }
}

LabSpec parse_lab_fields(const json& j, const std::string& origin) {
  const Ctx c{origin};
  LabSpec lab;
  lab.lab = need_string(j, "lab", c);
  lab.title = j.value("title", lab.lab);
  lab.version = j.value("version", "1");
  lab.public_seed = j.value("public_seed", 1ull);
  lab.time_limit_s = j.value("time_limit_s", 30.0);
  lab.limits.wall_s = lab.time_limit_s;
  if (j.contains("limits")) lab.limits = parse_limits_at(j.at("limits"), lab.limits, c.sub("limits"));
  lab.time_limit_s = lab.limits.wall_s;
  if (j.contains("hidden")) {
    lab.hidden_seed_env = j.at("hidden").value("seed_env", lab.hidden_seed_env);
    lab.hidden_visibility = j.at("hidden").value("visibility", lab.hidden_visibility);
  }
  if (j.contains("checker")) {
    const json& ch = j.at("checker");
    if (!ch.is_object() || !ch.contains("file") || !ch.at("file").is_string() || ch.at("file").get<std::string>().empty()) {
      c.sub("checker").fail("must be an object {\"file\": \"reference/<lab>/...cu\"} naming the implementation every "
                            "timed call's output is checked against");
    }
    lab.checker_file = ch.at("file").get<std::string>();
  }
  const json& parts = need(j, "parts", c);
  if (!parts.is_array() || parts.empty()) c.fail("parts must be a non-empty list");
  std::set<std::string> names;
  for (const json& p : parts) {
    lab.parts.push_back(parse_part(p, c, lab.limits));
    if (!names.insert(lab.parts.back().name).second) c.fail("two parts are named '" + lab.parts.back().name + "'");
  }
  return lab;
}

LabSpec load_lab_spec(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw LabSpecError(file.string() + ": cannot open (is the lab name right?)");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw LabSpecError(file.string() + ": not valid JSON: " + e.what());
  }
  LabSpec lab = parse_lab_spec(j, file.string());
  lab.file = file;
  return lab;
}

}  // namespace gpulab
