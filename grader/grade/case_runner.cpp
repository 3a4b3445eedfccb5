// Implementation of case_runner.hpp.
#include "grade/case_runner.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <signal.h>

#include "compare.hpp"
#include "grade/finding_kind.hpp"
#include "files/grader_error.hpp"
#include "files/utf8_text.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
// At most `limit` bytes of a file the child wrote (a larger one is not what the harness writes).
std::string read_text_capped(const fs::path& p, size_t limit) {
  std::ifstream in(p, std::ios::binary);
  std::string text(limit, '\0');
  in.read(text.data(), static_cast<std::streamsize>(limit));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

// The emulator's findings the grader reads: enough for every finding a run can make, not a 1 GB file.
constexpr size_t kMaxDiagnosticsBytes = size_t{4} << 20;
constexpr size_t kMaxFindingBytes = 4000;

// What the request asked of the harness, which its report must match.
ReportExpectations expectations(const PartSpec& part, const json& extra) {
  ReportExpectations e;
  e.part = &part;
  e.timing = extra.contains("timing");
  e.recheck = extra.contains("recheck");
  e.probe = extra.value("probe", false);
  if (e.timing) {
    const json& t = extra.at("timing");
    e.max_timed_calls = t.value("max_runs", 100) + t.value("warmup", 0);
  }
  return e;
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

namespace {
// Everything the grader reads back from a finished child: the files it left (plain files only),
// the emulator's findings and profile, the limits that stopped it, and the harness's report.
void read_back(CaseRun& run, const PartSpec& part, const DatasetCase& c, const json& extra,
               const sandbox::ResolvedLimits& limits, const fs::path& result_path, const fs::path& diag_path,
               const fs::path& profile_path) {
  const double limit = limits.wall_s;
  run.stopped_by = run.child.timed_out ? StopReason::time_limit : limit_reason(run.child);
  // What the grader reads back must be plain files the child wrote (not links to expected outputs).
  std::vector<std::string> files_read = {"result.json", "diagnostics.jsonl", "profile.json"};
  for (const ParamSpec& p : part.params) {
    files_read.push_back("output_" + p.name + ".npy");
    files_read.push_back("recheck_" + p.name + ".npy");
  }
  if (const std::string bad = check_child_files(run.dir, files_read); !bad.empty()) {
    run.failure = bad;
    run.failure_kind = FailureKind::other;
    return;
  }

  // Hints only (no points), but still the child's file: read at most 16 MB of it.
  std::error_code ec;
  if (fs::is_regular_file(profile_path, ec) && fs::file_size(profile_path, ec) < (16u << 20))
    run.profile_file = profile_path;

  // The emulator's findings, in its own words: also the child's file, read line by line with a bound
  // on what is read (a line that is not a finding is skipped; it gives hints and reasons, never points).
  const std::string diag_text = read_text_capped(diag_path, kMaxDiagnosticsBytes);
  std::istringstream diag(diag_text);
  size_t hidden_count = 0;
  for (std::string line; std::getline(diag, line);) {
    try {
      const json d = json::parse(line);
      if (!d.is_object() || !d.contains("message") || !d.at("message").is_string()) continue;
      std::string message = d.at("message").get<std::string>();
      if (message.size() > kMaxFindingBytes) message.replace(kMaxFindingBytes, std::string::npos, " ...");
      message = files::valid_utf8(message);
      if (run.diagnostics.size() < 3) run.diagnostics.push_back(message);
      else ++hidden_count;
      const FindingKind kind = d.value("kind", FindingKind::other);
      if (kind == FindingKind::data_race && run.race.empty()) run.race = message;
      if (kind == FindingKind::watchdog) run.stopped_by = StopReason::watchdog;
    } catch (const json::exception&) {}
  }
  if (hidden_count) run.diagnostics.push_back("... and " + std::to_string(hidden_count) + " more findings");

  if (run.child.timed_out) {
    run.failure = run.with_diagnostics("timed out after " + std::to_string(static_cast<int>(limit)) +
                                       " s (an endless loop, a deadlock, or far too slow)");
    run.failure_kind = FailureKind::timeout;
    return;
  }
  if (const std::string why = limit_feedback(run.child, limits); !why.empty()) {
    run.failure = run.with_diagnostics(why);
    run.failure_kind =
        run.stopped_by == StopReason::cpu_time_limit ? FailureKind::timeout : FailureKind::resource_limit;
    return;
  }
  if (run.child.signal == SIGSYS) {
    // The harness's system-call filter stopped the program (process_hardening.hpp): it tried what a
    // graded program has no use for (making memory executable, tracing a process, ...).
    const std::string& out = run.child.output;
    const std::string marker = "gpulab-harness: refused system call ";
    const size_t at = out.rfind(marker);
    const size_t from = at + marker.size();
    const std::string what =
        at == std::string::npos
            ? "a system call the harness refuses"
            : files::valid_utf8(out.substr(from, std::min<size_t>(200, out.find('\n', from) - from)));
    run.review = "stopped by the harness's system-call filter when it called " + what;
    run.failure = run.with_diagnostics(
        "your program was stopped when it called " + what +
        ": a graded program has no use for that (it is how a program would change the grader's code or read "
        "another process); this run earns no points and your submission is marked for the instructor's review");
    run.failure_kind = FailureKind::tampering;
    return;
  }
  // The harness writes {"status": "started"} first and its verdict last (harness_main.cpp). Both
  // are the child's file: read with the typed reader, as untrusted input.
  const bool harness_started = fs::exists(result_path);
  if (harness_started) {
    try {
      run.report = read_harness_report(read_text_capped(result_path, kMaxReportBytes + 1), "result.json",
                                       expectations(part, extra));
    } catch (const UntrustedInputError& e) {
      run.review = std::string("the program's report cannot be trusted: ") + files::valid_utf8(e.what());
      run.failure = run.with_diagnostics(
          "the harness's report (result.json) is not what the harness writes: " + files::valid_utf8(e.what()) +
          ". Your program shares its process with the harness, and something in it changed that report, so "
          "this run cannot be graded; it earns no points and your submission is marked for the instructor's "
          "review");
      run.failure_kind = FailureKind::tampering;
      return;
    }
  }
  if (!run.report || run.report->status == HarnessStatus::started) {
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
    return;
  }
  const HarnessReport& report = *run.report;
  if (report.status == HarnessStatus::harness_error) {
    // The harness failed before calling the submission (no device, a driver that does not work, a
    // dataset it cannot load): from a trusted program the grader's problem. The caller decides.
    run.harness_error = "the grading harness failed before calling the submission (" + c.label() +
                        "): " + files::valid_utf8(report.message.empty() ? "no message" : report.message) +
                        "; on the cuda backend check that the GPU and its driver work (nvidia-smi)";
    run.failure = run.harness_error;
    run.failure_kind = FailureKind::grader_error;
    return;
  }
  if (report.status != HarnessStatus::ok) {
    run.failure =
        run.with_diagnostics(files::valid_utf8(report.message.empty() ? to_string(report.status) : report.message));
    run.failure_kind = harness_failure_kind(report.status);
  }
}

}  // namespace

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
    // Tools that inject code of their own into the program: its system-call filter stays off (these
    // runs score nothing).
    env["GPULAB_HARNESS_HARDENING"] = "0";
    executable = wrapper.front();
    args.insert(args.begin(), program.string());
    args.insert(args.begin(), wrapper.begin() + 1, wrapper.end());
    inputs.push_back(program);
  }
  run.child = runner.run_case(executable, args, run.dir, inputs, env, limits);
  const auto child_end = std::chrono::steady_clock::now();
  read_back(run, part, c, extra, limits, result_path, diag_path, profile_path);
  run.read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - child_end).count();
  return run;
}

FailureKind harness_failure_kind(HarnessStatus status) {
  if (status == HarnessStatus::missing_function) return FailureKind::missing_function;
  if (status == HarnessStatus::cuda_error) return FailureKind::cuda_error;
  if (status == HarnessStatus::timed_output_wrong) return FailureKind::wrong_answer;
  return FailureKind::other;
}

std::vector<Problem> harness_findings(const CallInspection& call, long long kernel_launches,
                                      const HostWorkPolicy& policy, const InputVolume& inputs) {
  std::vector<Problem> problems;
  if (kernel_launches == 0) {
    problems.push_back({FailureKind::no_kernel,
                        "no kernel was launched: the host function must do its work on the GPU with a kernel launch"});
    return problems;
  }
  if (call.transfers) {
    if (std::optional<Problem> p = host_work_problem(*call.transfers, policy, inputs)) problems.push_back(*p);
  }
  for (const std::string& name : call.inputs_modified) {
    problems.push_back({FailureKind::input_modified, "input '" + name + "' was modified: inputs are read-only"});
  }
  for (const GuardOverrun& g : call.guard_overruns) {
    problems.push_back({FailureKind::out_of_bounds, "out-of-bounds write " + g.where + " buffer '" + g.buffer + "'"});
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
