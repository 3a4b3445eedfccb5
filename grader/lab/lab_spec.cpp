// Parsing and validation of lab.json, through JsonReader.
#include "lab_spec.hpp"

#include <cctype>
#include <fstream>
#include <set>

#include "lab/bench_spec.hpp"
#include "lab/case_inputs.hpp"
#include "lab/json_reader.hpp"
#include "lab/performance_spec.hpp"

namespace gpulab {
namespace {
using nlohmann::json;

bool is_c_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') return false;
  return true;
}

// A name that becomes C code (a host function, a parameter) or a shell variable.
std::string identifier(const JsonReader& r, const std::string& what) {
  const std::string s = r.text();
  if (!is_c_identifier(s)) {
    r.fail("'" + s + "' is not a valid " + what + " name: use letters, digits and '_', not starting with a digit");
  }
  return s;
}

const std::vector<std::string> kDtypes = {"int32", "uint32", "float32", "float64", "uint8", "char", "int8"};

ParamSpec parse_param(const JsonReader& param) {
  const JsonReader r = param.named_by("name", "param");
  r.expect_object({"name", "role", "dtype", "shape", "initial", "ctype"},
                  "a param such as {\"name\": \"in\", \"role\": \"input\", \"dtype\": \"int32\", \"shape\": [\"n\"]}");
  ParamSpec p;
  p.name = identifier(r.at("name", "the parameter's C name"), "parameter");
  const JsonReader& pr = r;
  const std::string role = pr.one_of("role", {"input", "output", "size"});
  p.role = role == "input" ? ParamRole::input : role == "output" ? ParamRole::output : ParamRole::size;
  if (p.role == ParamRole::size) {
    for (const char* key : {"dtype", "shape", "initial"}) {
      if (pr.has(key)) {
        pr.at(key, "").fail(std::string("a size param has no '") + key +
                            "': remove it (a size is a scalar whose C type is "
                            "'ctype', int or size_t)");
      }
    }
    p.ctype = pr.one_of_or("ctype", "int", {"int", "size_t"});
    return p;
  }
  if (pr.has("ctype"))
    pr.at("ctype", "").fail("only size params have a 'ctype': remove it (this param's type is its 'dtype')");
  p.dtype = parse_dtype(pr.one_of("dtype", kDtypes));
  for (const JsonReader& d :
       pr.at("shape", "a list of size names or numbers, e.g. [\"n\"]").elements("size names or numbers")) {
    if (d.value().is_string()) p.shape.push_back(d.text());
    else p.shape.push_back(std::to_string(d.whole(NumberRange::at_least(1))));
  }
  if (pr.has("initial")) {
    const std::string init = pr.one_of("initial", {"zero", "poison"});
    if (p.role != ParamRole::output) {
      pr.at("initial", "").fail("only outputs have an 'initial' value: remove it (inputs hold the dataset's values)");
    }
    p.initially_zero = init == "zero";
  }
  return p;
}

FamilySpec parse_family(const JsonReader& family, const PartSpec& part) {
  const JsonReader r = family.named_by("family", "family");
  r.expect_object({"family", "public", "sizes", "inputs"},
                  "a dataset family such as {\"family\": \"tiny\", \"sizes\": [{\"n\": 1}], \"inputs\": {...}}");
  FamilySpec f;
  f.family = r.text("family");
  const JsonReader& fr = r;
  f.is_public = fr.boolean_or("public", true);
  for (const JsonReader& s : fr.at("sizes", "a list of size assignments, one case each, e.g. [{\"n\": 1000}]")
                                 .elements("size assignments such as {\"n\": 1000}")) {
    f.sizes.push_back(read_sizes(s, part));
  }
  f.inputs = read_inputs(fr.at("inputs", "a value distribution for every input"), part);
  return f;
}

// A "limits" object on top of `inherited`: every field optional and positive.
sandbox::ResourceLimits parse_limits(const JsonReader& r, const sandbox::ResourceLimits& inherited, bool lab_wide) {
  if (!lab_wide && r.has("compile_s")) {
    r.at("compile_s", "").fail("limit 'compile_s' is lab-wide: put it in the lab's \"limits\", not a part's");
  }
  std::vector<std::string> names;
  for (const sandbox::LimitField& f : sandbox::limit_fields())
    if (lab_wide || std::string(f.name) != "compile_s") names.push_back(f.name);
  r.expect_object(names, "an object of limits such as {\"wall_s\": 60, \"memory_mb\": 2048}");
  sandbox::ResourceLimits out = inherited;
  for (const sandbox::LimitField& f : sandbox::limit_fields()) {
    if (!r.has(f.name)) continue;
    out.*(f.member) = f.whole ? static_cast<double>(r.at(f.name, "").whole(NumberRange::at_least(1)))
                              : r.number(f.name, NumberRange::positive());
  }
  return out;
}

PartSpec parse_part(const JsonReader& part, const sandbox::ResourceLimits& lab_limits) {
  const JsonReader r = part.named_by("name", "part");
  r.expect_object({"name", "points", "function", "time_limit_s", "limits", "params", "check", "datasets", "performance",
                   "host_work"},
                  "a part such as {\"name\": \"int\", \"points\": 50, \"function\": ..., \"params\": [...], ...}");
  PartSpec p;
  p.name = r.text("name");
  const JsonReader& pr = r;
  p.points = pr.number("points", NumberRange::at_least(0));
  p.function = identifier(pr.at("function", "the name of the C host function students define"), "C function");
  p.limits = lab_limits;
  if (pr.has("time_limit_s")) p.limits.wall_s = pr.number("time_limit_s", NumberRange::positive());
  if (auto l = pr.find("limits")) p.limits = parse_limits(*l, p.limits, false);
  p.time_limit_s = p.limits.wall_s;
  const std::vector<JsonReader> param_readers =
      pr.at("params", "the host function's parameters, in the order of its C signature").elements("params");
  std::set<std::string> names;
  for (const JsonReader& pj : param_readers) {
    p.params.push_back(parse_param(pj));
    if (!names.insert(p.params.back().name).second)
      pj.fail("two params are named '" + p.params.back().name + "': rename one");
  }
  // Shapes may name size params listed after them, so they are checked once all params are read.
  for (size_t i = 0; i < p.params.size(); ++i) {
    const ParamSpec& ps = p.params[i];
    for (size_t k = 0; k < ps.shape.size(); ++k) {
      const std::string& d = ps.shape[k];
      if (!std::isdigit(static_cast<unsigned char>(d[0])) && (!p.param(d) || p.param(d)->role != ParamRole::size)) {
        const JsonReader entry = param_readers[i].at("shape", "").elements("size names or numbers")[k];
        entry.named("param '" + ps.name + "'")
            .fail("'" + d + "' is not a size param of this part: name one of its size params or write a number");
      }
    }
  }
  const JsonReader check = pr.at("check", "{\"kind\": \"exact\"} or {\"kind\": \"float_bound\", \"factor\": 4}");
  check.expect_object({"kind", "factor"}, "{\"kind\": \"exact\"} or {\"kind\": \"float_bound\", \"factor\": 4}");
  p.check.kind = check.one_of("kind", {"exact", "float_bound"});
  if (p.check.kind == "float_bound") {
    p.check.factor = check.number("factor", NumberRange::positive());
  } else if (check.has("factor")) {
    check.at("factor", "")
        .fail("'factor' belongs to kind 'float_bound' only: remove it, or make the kind 'float_bound'");
  }
  std::set<std::string> families;
  for (const JsonReader& f : pr.at("datasets", "a list of dataset families").elements("dataset families")) {
    p.datasets.push_back(parse_family(f, p));
    if (!families.insert(p.datasets.back().family).second) {
      f.fail("two dataset families are named '" + p.datasets.back().family + "': rename one");
    }
  }
  if (auto perf = pr.find("performance")) p.performance = parse_performance(*perf, p);
  return p;
}

// "host_work": what a solution may do on the host; `base` holds the defaults (the lab's, for a part).
HostWorkPolicy parse_host_work(const JsonReader& r, const HostWorkPolicy& base) {
  r.expect_object({"input_fraction_to_host", "input_elements_to_host", "host_visible_memory"},
                  "an object such as {\"input_fraction_to_host\": 0.5, \"host_visible_memory\": false}");
  HostWorkPolicy h = base;
  h.input_fraction_to_host =
      r.number_or("input_fraction_to_host", h.input_fraction_to_host, NumberRange::between(0, 1));
  if (auto e = r.find("input_elements_to_host")) h.input_elements_to_host = e->whole(NumberRange::at_least(0));
  h.host_visible_memory = r.boolean_or("host_visible_memory", h.host_visible_memory);
  return h;
}

LabSpec parse_lab_fields(const json& j, const std::string& origin) {
  const JsonReader r(j, origin);
  r.expect_object({"lab", "title", "version", "public_seed", "time_limit_s", "limits", "hidden", "checker", "host_work",
                   "parts", "bench", "library_algorithms"},
                  "an object such as {\"lab\": \"reduction\", \"parts\": [...]} (see docs/lab-format.md)");
  LabSpec lab;
  lab.lab = r.text("lab");
  lab.title = r.text_or("title", lab.lab);
  lab.version = r.text_or("version", "1");
  if (auto seed = r.find("public_seed")) lab.public_seed = seed->whole_unsigned();
  lab.time_limit_s = r.number_or("time_limit_s", 30.0, NumberRange::positive());
  lab.limits.wall_s = lab.time_limit_s;
  if (auto l = r.find("limits")) lab.limits = parse_limits(*l, lab.limits, true);
  lab.time_limit_s = lab.limits.wall_s;
  if (auto h = r.find("hidden")) {
    h->expect_object({"seed_env", "visibility"},
                     "an object such as {\"seed_env\": \"GPULAB_HIDDEN_SEED\", \"visibility\": \"after_due_date\"}");
    if (auto env = h->find("seed_env")) lab.hidden_seed_env = identifier(*env, "environment variable");
    lab.hidden_visibility = h->one_of_or("visibility", lab.hidden_visibility, gradescope_visibilities());
  }
  if (auto ch = r.find("checker")) {
    const std::string what =
        "an object {\"file\": \"reference/<lab>/...cu\"} naming the implementation every timed call's "
        "output is checked against";
    ch->expect_object({"file"}, what);
    lab.checker_file =
        ch->at("file", "the CUDA file from the project root, e.g. \"reference/<lab>/progression/<kernel>.cu\"").text();
  }
  HostWorkPolicy host_work;
  if (auto h = r.find("host_work")) host_work = parse_host_work(*h, host_work);
  std::set<std::string> names, functions;
  for (const JsonReader& p : r.at("parts", "the list of the lab's parts").elements("parts")) {
    lab.parts.push_back(parse_part(p, lab.limits));
    lab.parts.back().host_work = host_work;
    if (auto h = p.find("host_work")) lab.parts.back().host_work = parse_host_work(*h, host_work);
    if (!names.insert(lab.parts.back().name).second)
      p.fail("two parts are named '" + lab.parts.back().name + "': rename one");
    if (!functions.insert(lab.parts.back().function).second) {
      p.at("function", "")
          .fail("two parts name the host function '" + lab.parts.back().function +
                "': each part needs its own function");
    }
  }
  if (lab.total_points() <= 0) {
    r.at("parts", "").fail("the parts' points add up to 0: give at least one part points");
  }
  if (auto l = r.find("library_algorithms")) lab.library_algorithms = parse_library_algorithms(*l);
  if (auto b = r.find("bench")) {
    lab.bench = b->value();
    bench::read_bench_spec(lab, *b);  // checked now, used by `gpulab bench`
  }
  return lab;
}
}  // namespace

const std::vector<std::string>& gradescope_visibilities() {
  static const std::vector<std::string> v = {"hidden", "after_due_date", "after_published", "visible"};
  return v;
}

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

LabSpec parse_lab_spec(const json& j, const std::string& origin) {
  try {
    return parse_lab_fields(j, origin);
  } catch (const json::exception& e) {
    // Every value is read through JsonReader, which checks its type first; this is a last guard.
    throw LabSpecError(origin + ": a field has the wrong type (" + e.what() + ")");
  }
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
