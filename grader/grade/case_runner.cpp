// Implementation of case_runner.hpp.
#include "grade/case_runner.hpp"

#include <algorithm>
#include <fstream>
#include <map>

#include "compare.hpp"
#include "grade/finding_kind.hpp"
#include "files/grader_error.hpp"
#include "files/utf8_text.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
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

json request_params(const PartSpec& part, const Manifest& m, const DatasetCase& c) {
  json params = json::array();
  for (const ParamSpec& p : part.params) {
    json pj = {{"name", p.name}};
    if (p.role == ParamRole::size) {
      pj["role"] = "size";
      pj["value"] = c.sizes.at(p.name);
    } else if (p.role == ParamRole::input) {
      const CaseFile* f = c.file("input", p.name);
      if (!f)
        throw DatasetError((m.directory / "manifest.json").string() + ": case " + c.id + " has no input '" + p.name +
                           "'");
      pj["role"] = "input";
      pj["file"] = fs::absolute(m.directory / f->file).string();
    } else {
      pj["role"] = "output";
      pj["dtype"] = dtype_name(p.dtype);
      pj["shape"] = p.resolve_shape(c.sizes);
      pj["initial"] = p.initially_zero ? "zero" : "poison";
    }
    params.push_back(pj);
  }
  return params;
}
}  // namespace

std::string CaseRun::with_diagnostics(std::string text) const {
  for (const std::string& d : diagnostics) text += "\n  emulator: " + d;
  return text;
}

CaseRun run_harness_case(const PartSpec& part, const Manifest& m, const DatasetCase& c, const fs::path& program,
                         const fs::path& work, const SubmissionRunner& runner, const json& extra, double time_limit_s,
                         const std::vector<std::string>& wrapper, const std::vector<fs::path>& more_inputs,
                         Profiling profile) {
  CaseRun run;
  run.dir = work / (std::string(m.hidden ? "hidden-" : "") + c.id);
  fs::create_directories(run.dir);
  const fs::path result_path = run.dir / "result.json";
  const fs::path diag_path = run.dir / "diagnostics.jsonl";
  fs::remove(result_path);
  fs::remove(diag_path);
  const json params = request_params(part, m, c);
  std::vector<fs::path> inputs = more_inputs;  // the only dataset files the child sees
  for (const json& p : params)
    if (p.at("role") == "input") inputs.push_back(p.at("file").get<std::string>());
  json request = {
      {"part", part.name}, {"params", params}, {"output_dir", run.dir.string()}, {"result", result_path.string()}};
  request.update(extra);
  std::ofstream(run.dir / "request.json") << request.dump(1);

  sandbox::ResolvedLimits limits = runner.limits(part.limits);
  if (time_limit_s > 0) {
    limits.cpu_s = std::max(limits.cpu_s, limits.cpu_s / limits.wall_s * time_limit_s);
    limits.wall_s = time_limit_s;
  }
  const double limit = limits.wall_s;
  const fs::path profile_path = run.dir / "profile.json";
  fs::remove(profile_path);
  // The checking build reads GPULAB_EMU_CHECKS (race only when unset); other builds ignore it.
  // GPULAB_EMU_REPLAY=0: a graded run times what the submission does; the emulator's replays of
  // repeated launches (grader/emu/src/README.md) would make a slow path repeated on the same
  // data fast.
  std::map<std::string, std::string> env = {
      {"GPULAB_EMU_REPORT", diag_path.string()},
      {"GPULAB_EMU_WATCHDOG_SECONDS", std::to_string(std::max(1.0, std::min(10.0, limit - 2)))},
      {"GPULAB_EMU_REPLAY", "0"}};
  if (profile != Profiling::off) {
    env.insert({{"GPULAB_EMU_CHECKS", "race,profile"}, {"GPULAB_EMU_PROFILE", profile_path.string()}});
  }
  if (profile == Profiling::every_block) env["GPULAB_PROFILE_BLOCKS"] = "0";
  std::vector<std::string> args{"--request", (run.dir / "request.json").string()};
  fs::path executable = program;
  if (!wrapper.empty()) {  // e.g. compute-sanitizer --tool memcheck PROGRAM --request ...
    executable = wrapper.front();
    args.insert(args.begin(), program.string());
    args.insert(args.begin(), wrapper.begin() + 1, wrapper.end());
    inputs.push_back(program);
  }
  run.child = runner.run_case(executable, args, run.dir, inputs, env, limits);
  run.stopped_by = run.child.timed_out ? StopReason::time_limit : limit_reason(run.child);
  // What the grader reads back must be plain files the child wrote (not links to expected outputs).
  std::vector<std::string> read_back = {"result.json", "diagnostics.jsonl", "profile.json"};
  for (const ParamSpec& p : part.params) {
    read_back.push_back("output_" + p.name + ".npy");
    read_back.push_back("recheck_" + p.name + ".npy");
  }
  if (const std::string bad = check_child_files(run.dir, read_back); !bad.empty()) {
    run.failure = bad;
    run.failure_kind = FailureKind::other;
    return run;
  }

  // Hints only (no points), but still the child's file: read at most 16 MB of it.
  std::error_code ec;
  if (fs::is_regular_file(profile_path, ec) && fs::file_size(profile_path, ec) < (16u << 20))
    run.profile_file = profile_path;

  // The emulator's findings, in its own words.
  std::ifstream diag(diag_path);
  size_t hidden_count = 0;
  for (std::string line; std::getline(diag, line);) {
    try {
      const json d = json::parse(line);
      if (run.diagnostics.size() < 3) run.diagnostics.push_back(d.at("message").get<std::string>());
      else ++hidden_count;
      const FindingKind kind = d.value("kind", FindingKind::other);
      if (kind == FindingKind::data_race && run.race.empty()) run.race = d.at("message").get<std::string>();
      if (kind == FindingKind::watchdog) run.stopped_by = StopReason::watchdog;
    } catch (const json::exception&) {}
  }
  if (hidden_count) run.diagnostics.push_back("... and " + std::to_string(hidden_count) + " more findings");

  if (run.child.timed_out) {
    run.failure = run.with_diagnostics("timed out after " + std::to_string(static_cast<int>(limit)) +
                                       " s (an endless loop, a deadlock, or far too slow)");
    run.failure_kind = FailureKind::timeout;
    return run;
  }
  if (const std::string why = limit_feedback(run.child, limits); !why.empty()) {
    run.failure = run.with_diagnostics(why);
    run.failure_kind =
        run.stopped_by == StopReason::cpu_time_limit ? FailureKind::timeout : FailureKind::resource_limit;
    return run;
  }
  // The harness writes {"status": "started"} first and its verdict last (harness_main.cpp).
  json early;
  if (fs::exists(result_path)) {
    try {
      early = json::parse(read_text(result_path));
    } catch (const json::exception&) {}
  }
  const bool harness_started = fs::exists(result_path);
  if (!harness_started || early.value("status", "") == "started") {
    std::string why =
        run.child.signal ? "crashed (" + signal_name(run.child.signal) + ")"
        : harness_started
            ? "ended (exit code " + std::to_string(run.child.exit_code) +
                  ") before the harness could check the outputs: does your code call exit()?"
            : "ended (exit code " + std::to_string(run.child.exit_code) +
                  ") without the grader's harness ever starting: does your file define its own main()? The "
                  "grader supplies main() and calls your host function; remove your main() (keep "
                  "your own tests in a separate file)";
    run.failure_kind = run.child.signal ? FailureKind::crash : FailureKind::early_exit;
    if (run.stopped_by == StopReason::watchdog) {
      why = "stopped by the emulator's watchdog: a kernel made no progress (an endless loop?)";
      run.failure_kind = FailureKind::timeout;
    }
    const std::string& out = run.child.output;
    const std::string tail = files::valid_utf8(out.size() > 2000 ? out.substr(out.size() - 2000) : out);
    run.failure = run.with_diagnostics(why) + (tail.empty() ? "" : "\n  program output (end):\n" + tail);
    return run;
  }
  try {
    run.result = json::parse(read_text(result_path));
  } catch (const json::exception&) {
    run.failure = "the harness's result file is unreadable (did the program overwrite it?)";
    run.failure_kind = FailureKind::other;
    return run;
  }
  const std::string status = run.result.value("status", "");
  if (status == "harness_error") {
    // The harness failed before calling the submission (no device, a driver that does not
    // work, a dataset it cannot load): the grader's problem, never the student's zero.
    throw files::GraderError("the grading harness failed before calling the submission (" + c.label() +
                             "): " + files::valid_utf8(run.result.value("message", std::string("no message"))) +
                             "; on the cuda backend check that the GPU and its driver work (nvidia-smi)");
  }
  if (status != "ok") {
    run.failure = run.with_diagnostics(run.result.value("message", status));
    run.failure_kind = harness_failure_kind(status);
  }
  return run;
}

FailureKind harness_failure_kind(const std::string& status) {
  if (status == "missing_function") return FailureKind::missing_function;
  if (status == "cuda_error") return FailureKind::cuda_error;
  if (status == "timed_output_wrong") return FailureKind::wrong_answer;
  return FailureKind::other;
}

std::vector<Problem> harness_findings(const json& result) {
  std::vector<Problem> problems;
  if (result.value("kernel_launches", -1) == 0) {
    problems.push_back({FailureKind::no_kernel,
                        "no kernel was launched: the host function must do its work on the GPU with a kernel launch"});
    return problems;
  }
  for (const json& name : result.value("inputs_modified", json::array())) {
    problems.push_back(
        {FailureKind::input_modified, "input '" + name.get<std::string>() + "' was modified: inputs are read-only"});
  }
  for (const json& g : result.value("guard_overruns", json::array())) {
    problems.push_back({FailureKind::out_of_bounds, "out-of-bounds write " + g.value("where", std::string("near")) +
                                                        " buffer '" + g.value("buffer", std::string("?")) + "'"});
  }
  return problems;
}

std::vector<Problem> compare_case_outputs(const PartSpec& part, const Manifest& m, const DatasetCase& c,
                                          const fs::path& dir, const std::string& prefix) {
  std::vector<Problem> problems;
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
      got = read_npy(dir / (prefix + p.name + ".npy"));
    } catch (const DatasetError& e) {
      problems.push_back(
          {FailureKind::missing_output, std::string("output '") + p.name + "' was not produced: " + e.what()});
      continue;
    }
    const CompareOutcome r =
        compare_output(part.check, p.name, expected, got, sf ? &scale : nullptr, !p.initially_zero);
    if (!r.passed) problems.push_back({FailureKind::wrong_answer, r.message});
  }
  return problems;
}

}  // namespace gpulab::grade
