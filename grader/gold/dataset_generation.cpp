// Dataset generation: value generators for the inputs, the gold functions for the
// expected outputs, each file hashed into the manifest, the manifest written last.
#include "gold/dataset_generation.hpp"

#include <nlohmann/json.hpp>

#include "data/sha256.hpp"
#include "data/value_generators.hpp"
#include "files/atomic_file.hpp"
#include "gold/gold_registry.hpp"

namespace gpulab {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
CaseFile store(const fs::path& dir, const std::string& rel, const std::string& param, const std::string& kind,
               const NdArray& a) {
  write_npy(dir / rel, a);
  return CaseFile{param, kind, rel, dtype_name(a.dtype()), a.shape(), sha256_file(dir / rel)};
}

json to_json(const Manifest& m) {
  json cases = json::array();
  for (const DatasetCase& c : m.cases) {
    json files = json::array();
    for (const CaseFile& f : c.files) {
      files.push_back({{"param", f.param},
                       {"kind", f.kind},
                       {"file", f.file},
                       {"dtype", f.dtype},
                       {"shape", f.shape},
                       {"sha256", f.sha256}});
    }
    cases.push_back({{"id", c.id},
                     {"part", c.part},
                     {"family", c.family},
                     {"number", c.number},
                     {"public", c.is_public},
                     {"sizes", c.sizes},
                     {"files", files}});
  }
  return {{"lab", m.lab}, {"lab_version", m.lab_version}, {"seed", m.seed}, {"hidden", m.hidden}, {"cases", cases}};
}
}  // namespace

Manifest generate_datasets(const LabSpec& lab, unsigned long long seed, bool hidden, Selection which,
                           const fs::path& out, const std::string& only_part) {
  fs::create_directories(out);
  Manifest m;
  m.lab = lab.lab;
  m.lab_version = lab.version;
  m.seed = seed;
  m.hidden = hidden;
  m.directory = out;
  for (const PartSpec& part : lab.parts) {
    if (!only_part.empty() && part.name != only_part) continue;
    const gold::GoldFunction& gold_fn = gold::find_gold(lab.lab, part.name);
    int number = 0;
    const bool timing = which == Selection::performance;
    if (timing && !part.performance) continue;
    for (const FamilySpec& family : timing ? part.performance->families() : part.datasets) {
      for (size_t k = 0; k < family.sizes.size(); ++k) {
        ++number;
        const bool wanted = timing || which == Selection::all ||
                            (which == Selection::public_small && family.is_public) ||
                            (which == Selection::public_large && !family.is_public);
        if (!wanted) continue;
        DatasetCase c;
        c.part = part.name;
        c.family = family.family;
        c.number = number;
        c.is_public = family.is_public;
        c.sizes = family.sizes[k];
        c.id = part.name + "-" + family.family + "-" + std::to_string(k + 1);
        fs::create_directories(out / c.id);
        gold::Case gc;
        gc.sizes = c.sizes;
        for (const ParamSpec& p : part.params) {
          if (p.role != ParamRole::input) continue;
          const uint64_t s = derive_seed(seed, lab.lab + "/" + c.id + "/" + p.name);
          NdArray values;
          try {
            values = generate_values(family.inputs.at(p.name), p.dtype, p.resolve_shape(c.sizes), s);
          } catch (const std::exception& e) {
            throw LabSpecError(lab.file.string() + ": part '" + part.name + "', family '" + family.family +
                               "', input '" + p.name + "': " + e.what());
          }
          c.files.push_back(store(out, c.id + "/input_" + p.name + ".npy", p.name, "input", values));
          gc.inputs[p.name] = std::move(values);
        }
        gold::Expected expected;
        gold_fn(gc, expected);
        for (const ParamSpec& p : part.params) {
          if (p.role != ParamRole::output) continue;
          auto it = expected.outputs.find(p.name);
          if (it == expected.outputs.end()) {
            throw std::runtime_error("gold for " + lab.lab + "/" + part.name + " did not set output '" + p.name + "'");
          }
          if (it->second.dtype() != p.dtype || it->second.shape() != p.resolve_shape(c.sizes)) {
            throw std::runtime_error("gold for " + lab.lab + "/" + part.name + " produced output '" + p.name + "' of " +
                                     dtype_name(it->second.dtype()) + it->second.shape_text() + ", lab.json says " +
                                     dtype_name(p.dtype));
          }
          c.files.push_back(store(out, c.id + "/expected_" + p.name + ".npy", p.name, "expected", it->second));
          if (part.check.kind == "float_bound") {
            auto sc = expected.scales.find(p.name);
            if (sc == expected.scales.end() || sc->second.size() != it->second.size()) {
              throw std::runtime_error("gold for " + lab.lab + "/" + part.name +
                                       " must set a scale for float_bound output '" + p.name + "'");
            }
            c.files.push_back(store(out, c.id + "/scale_" + p.name + ".npy", p.name, "scale", sc->second));
          }
        }
        m.cases.push_back(std::move(c));
      }
    }
  }
  // Written last, whole or not at all: a folder without it is never taken for a dataset.
  files::write_json_atomically(out / "manifest.json", to_json(m), 1);
  return m;
}

}  // namespace gpulab
