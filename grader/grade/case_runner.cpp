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
// `ended_here`: the child ended during this case (its last), so how it ended is this case's; a case
// it finished before going on is judged by its own files only.
void read_back(CaseRun& run, const PartSpec& part, const DatasetCase& c, const json& extra,
               const sandbox::ResolvedLimits& limits, const fs::path& result_path, const fs::path& diag_path,
               const fs::path& profile_path, bool ended_here) {
  const double limit = limits.step_s > 0 ? limits.step_s : limits.wall_s;
  if (!ended_here) {
    const bool exited = run.child.exit_code == 0 && !run.child.signal;
    run.child.timed_out = false;
    run.child.output_exceeded = run.child.memory_exceeded = false;
    run.child.signal = 0;
    if (!exited) run.child.exit_code = 0;
  }
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

namespace {
// Each case's times on the child's clock, from the harness's marks: when it began and ended (-1:
// not marked), and the reason the child gave for ending before the next case, if it did.
struct CaseMarks {
  std::vector<double> begun, ended;
  std::string fresh_process;
};
CaseMarks case_marks(const process::ProcessResult& child, size_t cases) {
  CaseMarks k{std::vector<double>(cases, -1), std::vector<double>(cases, -1), ""};
  const auto index = [&](const std::string& name, const std::string& prefix) -> long {
    if (name.rfind(prefix, 0) != 0) return -1;
    try {
      const long i = std::stol(name.substr(prefix.size()));
      return i >= 0 && static_cast<size_t>(i) < cases ? i : -1;
    } catch (const std::exception&) {
      return -1;
    }
  };
  for (const process::OutputMarker& m : child.markers) {
    if (const long i = index(m.name, "case_begin:"); i >= 0 && k.begun[i] < 0) k.begun[i] = m.seconds;
    if (const long i = index(m.name, "case_end:"); i >= 0 && k.ended[i] < 0) k.ended[i] = m.seconds;
    if (m.name.rfind("fresh_process:", 0) == 0 && k.fresh_process.empty())
      k.fresh_process = m.name.substr(std::string("fresh_process:").size());
  }
  return k;
}

// The markers of one case (between its begin and end marks), as if its child had run it alone.
std::vector<process::OutputMarker> markers_of(const process::ProcessResult& child, double begun, double ended) {
  std::vector<process::OutputMarker> out;
  for (const process::OutputMarker& m : child.markers) {
    if (m.name == "main") out.push_back({m.name, 0});
    else if (begun >= 0 && m.seconds >= begun && (ended < 0 || m.seconds <= ended))
      out.push_back({m.name, m.seconds - begun});
  }
  return out;
}
}  // namespace

std::vector<CaseRun> run_harness_cases(const PartSpec& part, const std::vector<CaseInBatch>& cases,
                                       const fs::path& program, const fs::path& work, const SubmissionRunner& runner,
                                       const json& extra, double time_limit_s, const std::vector<std::string>& wrapper,
                                       const std::vector<fs::path>& more_inputs, Profiling profile) {
  std::vector<CaseRun> runs(cases.size());
  std::vector<fs::path> inputs = more_inputs;  // the only dataset files the child sees
  const auto folder = [](const CaseInBatch& b) {
    return std::string(b.manifest->hidden ? "hidden-" : "") + b.dataset_case->id;
  };
  // The child's one writable folder: the case's own, or for several, one holding each case's.
  const fs::path batch_dir = work / (cases.size() == 1 ? folder(cases.front()) : "batch-" + folder(cases.front()));
  json listed = json::array();
  for (size_t i = 0; i < cases.size(); ++i) {
    const Manifest& m = *cases[i].manifest;
    const DatasetCase& c = *cases[i].dataset_case;
    CaseRun& run = runs[i];
    run.dir = cases.size() == 1 ? batch_dir : batch_dir / folder(cases[i]);
    fs::create_directories(run.dir);
    for (const char* f : {"result.json", "diagnostics.jsonl", "profile.json"}) fs::remove(run.dir / f);
    const json params = request_params(part, m, c);
    for (const json& p : params)
      if (p.at("role") == "input") inputs.push_back(p.at("file").get<std::string>());
    listed.push_back({{"params", params},
                      {"output_dir", run.dir.string()},
                      {"result", (run.dir / "result.json").string()},
                      {"findings", (run.dir / "diagnostics.jsonl").string()}});
  }
  json request = {{"part", part.name}, {"cases", listed}};
  request.update(extra);
  std::ofstream(batch_dir / "request.json") << request.dump(1);

  sandbox::ResolvedLimits limits = runner.limits(part.limits);
  if (time_limit_s > 0) {
    limits.cpu_s = std::max(limits.cpu_s, limits.cpu_s / limits.wall_s * time_limit_s);
    limits.wall_s = time_limit_s;
  }
  const double case_limit = limits.wall_s;
  if (cases.size() > 1) {  // each case its own limit; the run, all of them
    const double n = static_cast<double>(cases.size());
    limits.step_s = case_limit;
    limits.wall_s = case_limit * n;
    limits.cpu_s *= n;
    limits.output_kb = std::min(limits.output_kb * n, 64.0 * 1024);
  }
  const fs::path profile_path = runs.front().dir / "profile.json";
  // The checking build reads GPULAB_EMU_CHECKS (race only when unset); other builds ignore it.
  // GPULAB_EMU_REPLAY=0: a graded run times what the submission does; the emulator's replays of
  // repeated launches (grader/emu/src/README.md) would make a slow path repeated on the same
  // data fast. The harness points GPULAB_EMU_REPORT at each case's own findings file.
  std::map<std::string, std::string> env = {
      {"GPULAB_EMU_REPORT", (runs.front().dir / "diagnostics.jsonl").string()},
      {"GPULAB_EMU_WATCHDOG_SECONDS", std::to_string(std::max(1.0, std::min(10.0, case_limit - 2)))},
      {"GPULAB_EMU_REPLAY", "0"}};
  if (profile != Profiling::off) {
    env.insert({{"GPULAB_EMU_CHECKS", "race,profile"}, {"GPULAB_EMU_PROFILE", profile_path.string()}});
  }
  if (profile == Profiling::every_block) env["GPULAB_PROFILE_BLOCKS"] = "0";
  std::vector<std::string> args{"--request", (batch_dir / "request.json").string()};
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
  const process::ProcessResult child = runner.run_case(executable, args, batch_dir, inputs, env, limits);
  const auto child_end = std::chrono::steady_clock::now();

  // Each case the child began (or finished before it began any: a missing function, all at once)
  // is judged; the first it never began, and every later one, are left to a fresh child.
  const CaseMarks marks = case_marks(child, cases.size());
  sandbox::ResolvedLimits case_limits = limits;
  case_limits.step_s = cases.size() > 1 ? case_limit : 0;
  std::vector<CaseRun> judged;
  const bool batch = cases.size() > 1;
  const bool any_begun = std::any_of(marks.begun.begin(), marks.begun.end(), [](double t) { return t >= 0; });
  for (size_t i = 0; i < cases.size(); ++i) {
    CaseRun& run = runs[i];
    const bool finished = marks.ended[i] >= 0;
    const bool begun = marks.begun[i] >= 0;
    // The child ended in this case: the one it began and did not finish; or, when it began none
    // (it ended before its first case: its own main(), a crash before the harness ran), the first.
    const bool ended_here = !batch || (begun && !finished) || (!any_begun && i == 0);
    run.child = child;
    run.fresh_process = marks.fresh_process;
    if (batch) {
      // The child's start counts to its first case, its end to the last it ran.
      const double from = begun && !judged.empty() ? marks.begun[i] : 0;
      const double to = finished && i + 1 < cases.size() && marks.begun[i + 1] >= 0 ? marks.ended[i] : child.seconds;
      run.child.seconds = std::max(0.0, to - from);
      run.child.markers = markers_of(child, marks.begun[i], marks.ended[i]);
    }
    read_back(run, part, *cases[i].dataset_case, extra, case_limits, run.dir / "result.json",
              run.dir / "diagnostics.jsonl", i == 0 ? profile_path : run.dir / "profile.json", ended_here);
    // A case neither finished nor ended in is judged only by a final result the child wrote for
    // every case at once (a function the file does not define); otherwise a fresh child runs it.
    const bool settled = run.report && run.report->status != HarnessStatus::started;
    if (!finished && !ended_here && !settled) break;
    judged.push_back(std::move(run));
    if (ended_here && batch) break;
  }
  const double read_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - child_end).count();
  for (CaseRun& run : judged) run.read_s = read_s / static_cast<double>(judged.size());
  return judged;
}

CaseRun run_harness_case(const PartSpec& part, const Manifest& m, const DatasetCase& c, const fs::path& program,
                         const fs::path& work, const SubmissionRunner& runner, const json& extra, double time_limit_s,
                         const std::vector<std::string>& wrapper, const std::vector<fs::path>& more_inputs,
                         Profiling profile) {
  std::vector<CaseRun> runs =
      run_harness_cases(part, {{&m, &c}}, program, work, runner, extra, time_limit_s, wrapper, more_inputs, profile);
  return std::move(runs.front());
}

FailureKind harness_failure_kind(HarnessStatus status) {
  if (status == HarnessStatus::missing_function) return FailureKind::missing_function;
  if (status == HarnessStatus::cuda_error) return FailureKind::cuda_error;
  if (status == HarnessStatus::timed_output_wrong) return FailureKind::wrong_answer;
  return FailureKind::other;
}

}  // namespace gpulab::grade
