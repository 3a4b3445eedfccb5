// check_manifest_and_gold and check_with_reference.
#include "dataset_validation.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "files/temp_folder.hpp"
#include "data/dataset.hpp"
#include "gold/gold_registry.hpp"
#include "grade/grading.hpp"

namespace gpulab::validate {
namespace fs = std::filesystem;

namespace {
// "" when equal; else where they first differ.
std::string difference(const NdArray& want, const NdArray& got) {
  if (want.dtype() != got.dtype())
    return std::string("dtype ") + dtype_name(got.dtype()) + ", expected " + dtype_name(want.dtype());
  if (want.shape() != got.shape()) return "shape " + got.shape_text() + ", expected " + want.shape_text();
  const size_t es = dtype_size(want.dtype());
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(want.data() + i * es, got.data() + i * es, es) != 0) {
      return "element " + std::to_string(i) + " differs (bit for bit) from what the gold implementation computes";
    }
  }
  return "";
}

class ScopedHome {
 public:
  explicit ScopedHome(const fs::path& home) {
    if (const char* old = std::getenv("GPULAB_HOME")) old_ = old;
    setenv("GPULAB_HOME", home.c_str(), 1);
  }
  ~ScopedHome() {
    if (old_) setenv("GPULAB_HOME", old_->c_str(), 1);
    else unsetenv("GPULAB_HOME");
  }

 private:
  std::optional<std::string> old_;
};
}  // namespace

ValidationReport check_manifest_and_gold(const LabSpec& lab, const fs::path& dir) {
  ValidationReport r;
  Manifest m;
  try {
    m = read_manifest(dir, true);  // every file's size, shape and sha256
  } catch (const std::exception& e) {
    r.problems.push_back(e.what());
    return r;
  }
  const std::string where = (dir / "manifest.json").string();
  if (m.lab != lab.lab) r.problems.push_back(where + ": made for lab '" + m.lab + "', not '" + lab.lab + "'");
  if (m.lab_version != lab.version) {
    r.problems.push_back(where + ": made for lab version " + m.lab_version + ", lab.json is version " + lab.version +
                         " (regenerate with gpulab datagen)");
  }
  r.cases = m.cases.size();
  if (m.cases.empty()) r.problems.push_back(where + ": lists no cases");
  for (const DatasetCase& c : m.cases) {
    const std::string id = "case " + c.id;
    const PartSpec* part = nullptr;
    for (const PartSpec& p : lab.parts)
      if (p.name == c.part) part = &p;
    if (!part) {
      r.problems.push_back(id + ": part '" + c.part + "' is not in lab.json");
      continue;
    }
    bool family_known = false;
    for (const FamilySpec& f : part->datasets) family_known |= f.family == c.family;
    if (!family_known) r.problems.push_back(id + ": family '" + c.family + "' is not in lab.json's part " + c.part);
    gold::Case gc;
    gc.sizes = c.sizes;
    bool complete = true;
    for (const ParamSpec& p : part->params) {
      if (p.role == ParamRole::size && !c.sizes.count(p.name)) {
        r.problems.push_back(id + ": no value for size '" + p.name + "'");
        complete = false;
      }
      if (p.role == ParamRole::input) {
        const CaseFile* f = c.file("input", p.name);
        if (!f) {
          r.problems.push_back(id + ": no input '" + p.name + "'");
          complete = false;
          continue;
        }
        try {
          gc.inputs[p.name] = load_case_file(m, *f);
        } catch (const std::exception& e) {
          r.problems.push_back(id + ": " + e.what());
          complete = false;
        }
      }
    }
    if (!complete) continue;
    gold::Expected expected;
    try {
      gold::find_gold(lab.lab, part->name)(gc, expected);
    } catch (const std::exception& e) {
      r.problems.push_back(id + ": the gold implementation failed: " + e.what());
      continue;
    }
    for (const ParamSpec& p : part->params) {
      if (p.role != ParamRole::output) continue;
      for (const char* kind : {"expected", "scale"}) {
        const bool is_scale = std::strcmp(kind, "scale") == 0;
        if (is_scale && part->check.kind != "float_bound") continue;
        const CaseFile* f = c.file(kind, p.name);
        if (!f) {
          r.problems.push_back(id + ": no " + kind + " file for output '" + p.name + "'");
          continue;
        }
        const auto& table = is_scale ? expected.scales : expected.outputs;
        auto it = table.find(p.name);
        if (it == table.end()) {
          r.problems.push_back(id + ": the gold implementation gives no " + kind + " for '" + p.name + "'");
          continue;
        }
        try {
          const std::string diff = difference(it->second, load_case_file(m, *f));
          if (!diff.empty()) r.problems.push_back(id + ": " + f->file + ": " + diff);
        } catch (const std::exception& e) {
          r.problems.push_back(id + ": " + e.what());
        }
      }
    }
    ++r.gold_checked;
  }
  return r;
}

void check_with_reference(const LabSpec& lab, const fs::path& dir, toolchain::Backend backend, ValidationReport& r) {
  const fs::path project = toolchain::project_root();
  const fs::path reference = project / "reference" / lab.lab / (lab.lab + ".cu");
  if (!fs::exists(reference)) {
    r.problems.push_back(reference.string() + ": missing, so the reference cannot check the expected outputs");
    return;
  }
  const files::TempFolder home_folder("validate");  // removed on every path, Ctrl-C included
  const fs::path& home = home_folder.path();
  for (const char* entry : {"assignments", "grader", "reference"})
    fs::create_directory_symlink(project / entry, home / entry);
  fs::create_directories(home / "datasets");
  fs::create_directory_symlink(fs::absolute(dir), home / "datasets" / lab.lab);

  grade::GradeOptions o;
  o.backend = backend;
  for (const DatasetCase& c : read_manifest(dir, false).cases)  // a folder may hold only some parts (--part)
    if (std::find(o.only_parts.begin(), o.only_parts.end(), c.part) == o.only_parts.end())
      o.only_parts.push_back(c.part);
  o.include_large = false;
  o.include_hidden = false;
  grade::GradeResult g;
  {
    ScopedHome scoped(home);
    g = grade::grade_submission(lab, reference, o);
  }
  r.reference_ran = true;
  if (!g.compiled) {
    r.reference_failures.push_back("the reference does not compile:\n" + g.compile_output);
    return;
  }
  for (const grade::PartResult& p : g.parts) {
    for (const grade::CaseResult& c : p.cases) {
      ++r.reference_cases;
      if (c.passed) ++r.reference_passed;
      else r.reference_failures.push_back(c.id + ": " + c.feedback);
    }
  }
}

}  // namespace gpulab::validate
