// The grading loop.
#include "grading.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "child_process.hpp"
#include "compare.hpp"
#include "submission_runner.hpp"
#include "data/dataset.hpp"
#include "harness/binding_generator.hpp"
#include "toolchain/content_hash.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
struct CaseSource {
  Manifest manifest;
  const DatasetCase* c;
};

std::vector<Manifest> collect_datasets(const LabSpec& lab, const GradeOptions& o, std::string& hidden_note) {
  std::vector<Manifest> out;
  const fs::path root = toolchain::project_root();
  const fs::path public_dir = root / "datasets" / lab.lab;
  if (!fs::exists(public_dir / "manifest.json")) {
    throw DatasetError((public_dir / "manifest.json").string() + ": missing, so lab '" + lab.lab +
                       "' has no public datasets; generate them with `gpulab datagen " + lab.lab + " --public`");
  }
  {
    Manifest m = read_manifest(public_dir, true);
    if (m.lab_version != lab.version) {
      throw DatasetError((public_dir / "manifest.json").string() + ": made for lab version " + m.lab_version +
                         ", lab.json is version " + lab.version + " (regenerate with `gpulab datagen " + lab.lab +
                         " --public`)");
    }
    out.push_back(std::move(m));
  }
  if (o.include_large) {
    const fs::path dir = toolchain::cache_directory() / "datasets" /
                         (lab.lab + "-v" + lab.version + "-seed" + std::to_string(lab.public_seed) + "-large");
    Manifest m;
    bool have = false;
    if (fs::exists(dir / "manifest.json")) {
      try {
        m = read_manifest(dir, true);  // a damaged cache is regenerated, never blamed on the student
        have = true;
      } catch (const DatasetError&) {
        fs::remove_all(dir);
      }
    }
    if (!have) m = generate_datasets(lab, lab.public_seed, false, Selection::public_large, dir);
    out.push_back(std::move(m));
  }
  if (o.include_hidden) {
    const char* seed = std::getenv(lab.hidden_seed_env.c_str());
    if (seed && *seed) {
      const unsigned long long s = std::stoull(toolchain::ContentHash().add(seed).add(lab.lab).hex(), nullptr, 16);
      char tmpl[] = "/tmp/gpulab-hidden-XXXXXX";
      const char* d = mkdtemp(tmpl);
      if (!d) throw std::runtime_error("cannot create a directory for the hidden datasets");
      out.push_back(generate_datasets(lab, s, true, Selection::all, d));
      hidden_note = d;
    }
  }
  return out;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The number of elements a case moves (inputs and outputs), to compare the sizes of cases.
size_t case_size(const PartSpec& part, const DatasetCase& c) {
  size_t n = 0;
  for (const ParamSpec& p : part.params) {
    if (p.role == ParamRole::size) continue;
    size_t elements = 1;
    for (size_t d : p.resolve_shape(c.sizes)) elements *= d;
    n += elements;
  }
  return n;
}

std::string signal_name(int sig) {
  switch (sig) {
    case 11: return "segmentation fault: an invalid memory access";
    case 6: return "abort";
    case 8: return "floating-point exception (integer division by zero?)";
    case 9: return "killed";
    case 7: return "bus error";
    default: return "signal " + std::to_string(sig);
  }
}

void run_case(const LabSpec& lab, const PartSpec& part, const Manifest& m, const DatasetCase& c,
              const fs::path& program, const fs::path& work, const SubmissionRunner& runner, CaseResult& out) {
  const fs::path dir = work / (std::string(m.hidden ? "hidden-" : "") + c.id);
  fs::create_directories(dir);
  json params = json::array();
  std::vector<fs::path> inputs;  // the only dataset files the child sees
  for (const ParamSpec& p : part.params) {
    json pj = {{"name", p.name}};
    if (p.role == ParamRole::size) {
      pj["role"] = "size";
      pj["value"] = c.sizes.at(p.name);
    } else if (p.role == ParamRole::input) {
      const CaseFile* f = c.file("input", p.name);
      if (!f) throw DatasetError((m.directory / "manifest.json").string() + ": case " + c.id + " has no input '" + p.name + "'");
      pj["role"] = "input";
      pj["file"] = fs::absolute(m.directory / f->file).string();
      inputs.push_back(pj["file"].get<std::string>());
    } else {
      pj["role"] = "output";
      pj["dtype"] = dtype_name(p.dtype);
      pj["shape"] = p.resolve_shape(c.sizes);
      pj["initial"] = p.initially_zero ? "zero" : "poison";
    }
    params.push_back(pj);
  }
  const fs::path result_path = dir / "result.json";
  const fs::path diag_path = dir / "diagnostics.jsonl";
  fs::remove(result_path);
  fs::remove(diag_path);
  json request = {{"part", part.name}, {"params", params}, {"output_dir", dir.string()}, {"result", result_path.string()}};
  std::ofstream(dir / "request.json") << request.dump(1);

  const double limit = part.time_limit_s;
  const std::map<std::string, std::string> env = {
      {"GPULAB_EMU_REPORT", diag_path.string()},
      {"GPULAB_EMU_WATCHDOG_SECONDS", std::to_string(std::max(1.0, std::min(10.0, limit - 2)))}};
  const sandbox::ResolvedLimits limits = runner.limits(part.limits);
  const ChildResult child = runner.run_case(program, {"--request", (dir / "request.json").string()}, dir, inputs, env, limits);
  out.seconds = child.seconds;
  out.stopped_by = child.timed_out ? "the time limit" : limit_name(child);
  std::vector<std::string> read_back = {"result.json", "diagnostics.jsonl"};
  for (const ParamSpec& p : part.params) read_back.push_back("output_" + p.name + ".npy");
  if (const std::string bad = check_child_files(dir, read_back); !bad.empty()) {
    out.feedback = bad;
    return;
  }

  // The emulator's findings, in its own words. A data race fails the case even when
  // this run's outputs happen to be right: on a GPU the same code loses updates.
  std::ifstream diag(diag_path);
  std::string race;
  size_t shown = 0, hidden_count = 0;
  for (std::string line; std::getline(diag, line);) {
    try {
      const json d = json::parse(line);
      if (shown < 3) {
        out.diagnostics.push_back(d.at("message").get<std::string>());
        ++shown;
      } else {
        ++hidden_count;
      }
      if (d.value("kind", "") == "data-race" && race.empty()) race = d.at("message").get<std::string>();
      if (d.value("kind", "") == "watchdog") out.stopped_by = "the emulator's watchdog";
    } catch (const json::exception&) {
    }
  }
  if (hidden_count) out.diagnostics.push_back("... and " + std::to_string(hidden_count) + " more findings");
  auto with_diagnostics = [&](std::string text) {
    for (const std::string& d : out.diagnostics) text += "\n  emulator: " + d;
    return text;
  };

  if (child.timed_out) {
    out.feedback = with_diagnostics("timed out after " + std::to_string(static_cast<int>(limit)) +
                                    " s (an endless loop, a deadlock, or far too slow)");
    return;
  }
  if (const std::string why = limit_feedback(child, limits); !why.empty()) {
    out.feedback = with_diagnostics(why);
    return;
  }
  if (!fs::exists(result_path)) {
    std::string why = child.signal ? "crashed (" + signal_name(child.signal) + ")"
                                   : "ended (exit code " + std::to_string(child.exit_code) +
                                         ") before the harness could check the outputs: does your code call exit()?";
    if (out.stopped_by == "the emulator's watchdog") why = "stopped by the emulator's watchdog: a kernel made no progress (an endless loop?)";
    std::string tail = child.output.size() > 2000 ? child.output.substr(child.output.size() - 2000) : child.output;
    out.feedback = with_diagnostics(why) + (tail.empty() ? "" : "\n  program output (end):\n" + tail);
    return;
  }
  json result;
  try {
    result = json::parse(read_text(result_path));
  } catch (const json::exception&) {
    out.feedback = "the harness's result file is unreadable (did the program overwrite it?)";
    return;
  }
  const std::string status = result.value("status", "");
  if (status != "ok") {
    out.feedback = with_diagnostics(result.value("message", status));
    return;
  }
  if (result.value("kernel_launches", -1) == 0) {
    out.feedback = "no kernel was launched: the host function must do its work on the GPU with a kernel launch";
    return;
  }
  std::vector<std::string> problems;
  for (const json& name : result.value("inputs_modified", json::array())) {
    problems.push_back("input '" + name.get<std::string>() + "' was modified: inputs are read-only");
  }
  for (const json& g : result.value("guard_overruns", json::array())) {
    problems.push_back("out-of-bounds write " + g.value("where", std::string("near")) + " buffer '" +
                       g.value("buffer", std::string("?")) + "'");
  }
  for (const ParamSpec& p : part.params) {
    if (p.role != ParamRole::output) continue;
    const CaseFile* ef = c.file("expected", p.name);
    if (!ef) throw DatasetError("case " + c.id + " has no expected output '" + p.name + "'");
    const NdArray expected = load_case_file(m, *ef);
    const CaseFile* sf = c.file("scale", p.name);
    NdArray scale;
    if (sf) scale = load_case_file(m, *sf);
    NdArray got;
    try {
      got = read_npy(dir / ("output_" + p.name + ".npy"));
    } catch (const DatasetError& e) {
      problems.push_back(std::string("output '") + p.name + "' was not produced: " + e.what());
      continue;
    }
    const CompareOutcome r = compare_output(part.check, p.name, expected, got, sf ? &scale : nullptr, !p.initially_zero);
    if (!r.passed) problems.push_back(r.message);
  }
  if (!race.empty()) {
    problems.push_back("data race (found by the emulator's race check; on a GPU this gives wrong results "
                       "from run to run): use an atomic operation or a barrier where threads share data");
  }
  if (problems.empty()) {
    out.passed = true;
    if (!out.diagnostics.empty()) out.feedback = with_diagnostics("correct, but the emulator reported:");
    return;
  }
  std::string text;
  for (const std::string& p : problems) text += (text.empty() ? "" : "\n") + p;
  out.feedback = with_diagnostics(text);
  (void)lab;
}

std::string write_binding(const LabSpec& lab) {
  const std::string text = harness::generate_binding(lab);
  const fs::path dir = toolchain::cache_directory() / "bindings";
  fs::create_directories(dir);
  const fs::path file = dir / (lab.lab + "-" + toolchain::ContentHash().add(text).hex() + ".cpp");
  if (!fs::exists(file)) std::ofstream(file) << text;
  return file.string();
}
}  // namespace

LabSpec load_lab(const std::string& lab) {
  const fs::path file = toolchain::project_root() / "assignments" / lab / "lab.json";
  if (!fs::exists(file)) {
    std::string known;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(toolchain::project_root() / "assignments", ec)) {
      if (fs::exists(e.path() / "lab.json")) known += (known.empty() ? "" : ", ") + e.path().filename().string();
    }
    throw LabSpecError("no lab named '" + lab + "' (" + file.string() + " does not exist); labs: " + known);
  }
  return load_lab_spec(file);
}

GradeResult grade_submission(const LabSpec& lab, const fs::path& submission, const GradeOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  GradeResult g;
  g.lab = lab.lab;
  g.lab_version = lab.version;
  g.submission = submission.string();
  g.backend = toolchain::backend_name(o.backend);
  g.hidden_visibility = o.hidden_visibility.empty() ? lab.hidden_visibility : o.hidden_visibility;
  for (const PartSpec& p : lab.parts) {
    if (!o.only_parts.empty() && std::find(o.only_parts.begin(), o.only_parts.end(), p.name) == o.only_parts.end()) continue;
    g.parts.push_back(PartResult{p.name, p.signature(), 0, p.points, {}});
    g.max_score += p.points;
  }

  const SubmissionRunner runner(o.sandbox, o.backend);  // refuses here if the sandbox cannot run
  std::string hidden_dir;
  const std::vector<Manifest> manifests = collect_datasets(lab, o, hidden_dir);

  toolchain::BuildOptions b;
  b.backend = o.backend;
  b.use_cache = o.use_cache;
  const fs::path grader_dir = toolchain::project_root() / "grader";
  b.include_dirs = {grader_dir.string()};
  b.extra_sources = {write_binding(lab)};
  if (o.backend == toolchain::Backend::emu) {
    b.link_inputs = {toolchain::harness_emu_library()};
  } else {
    for (const char* f : {"harness/harness_main.cpp", "data/npy_io.cpp", "data/nd_array.cpp"}) {
      b.extra_sources.push_back(grader_dir / f);
    }
  }
  b.run_compiler = runner.compile_runner(lab);
  const auto compile_start = std::chrono::steady_clock::now();
  const toolchain::BuildResult built = toolchain::build_program(submission, b);
  g.compile_output = built.compiler_output;
  g.compiled = built.ok;
  // On the emulator the committed public cases also run in the checking build, which
  // reports data races (a race rarely changes the emulator's own results).
  fs::path race_program;
  if (built.ok && o.backend == toolchain::Backend::emu && o.race_check && toolchain::race_check_available()) {
    toolchain::BuildOptions rb = b;
    rb.race_check = true;
    const toolchain::BuildResult race_built = toolchain::build_program(submission, rb);
    if (race_built.ok) race_program = race_built.executable;
  }
  g.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - compile_start).count();
  if (built.ok) {
    char tmpl[] = "/tmp/gpulab-grade-XXXXXX";
    const char* work = mkdtemp(tmpl);
    if (!work) throw std::runtime_error("cannot create a working directory under /tmp");
    for (PartResult& pr : g.parts) {
      const PartSpec& part = lab.part(pr.name);
      std::vector<std::pair<const Manifest*, const DatasetCase*>> cases;
      for (const Manifest& m : manifests)
        for (const DatasetCase& c : m.cases)
          if (c.part == part.name) cases.push_back({&m, &c});
      std::sort(cases.begin(), cases.end(), [](const auto& a, const auto& b) {
        return std::make_pair(a.first->hidden, a.second->number) < std::make_pair(b.first->hidden, b.second->number);
      });
      if (cases.empty()) {
        throw DatasetError("no dataset cases for part '" + part.name + "' of lab '" + lab.lab +
                           "' (datasets/" + lab.lab + "/manifest.json lists none); regenerate with `gpulab datagen " +
                           lab.lab + " --public`");
      }
      const double each = part.points / static_cast<double>(cases.size());
      // After a run is stopped by a limit, cases at least as large are not run: they would be
      // stopped too, and a hang must cost about one time limit per part, not one per case.
      std::string stopped, stopped_by;  // the smallest case a limit stopped, and the limit
      size_t stopped_size = 0;
      for (const auto& [m, c] : cases) {
        CaseResult cr;
        cr.part = part.name;
        cr.id = c->id;
        cr.family = c->family;
        cr.hidden = m->hidden;
        cr.label = (m->hidden ? "hidden " : "") + c->label();
        cr.max_score = each;
        const bool checked = !race_program.empty() && !m->hidden && c->is_public;
        const size_t size = case_size(part, *c);
        if (!stopped.empty() && size >= stopped_size) {
          cr.feedback = "not run: " + stopped + " of this part was stopped by " + stopped_by +
                        ", and this case is at least as large";
          pr.cases.push_back(std::move(cr));
          continue;
        }
        run_case(lab, part, *m, *c, checked ? race_program : built.executable, work, runner, cr);
        if (!cr.stopped_by.empty() && (stopped.empty() || size < stopped_size)) {
          stopped = cr.label;
          stopped_by = cr.stopped_by;
          stopped_size = size;
        }
        if (cr.passed) cr.score = each;
        pr.score += cr.score;
        pr.cases.push_back(std::move(cr));
      }
    }
    std::error_code ec;
    fs::remove_all(work, ec);
  }
  if (!hidden_dir.empty()) {
    std::error_code ec;
    fs::remove_all(hidden_dir, ec);
  }
  for (const PartResult& p : g.parts) g.score += p.score;
  g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return g;
}

}  // namespace gpulab::grade
