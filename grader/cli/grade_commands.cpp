// `gpulab grade` (the instructor's/Gradescope's view: a score and a results
// file) and `gpulab test` (the student's view: a coloured table with hints).
// Both run the submission in the sandbox; where it cannot start, `grade`
// refuses (exit 5) unless --no-sandbox is given, while `test`, which runs a
// student's own code for them, goes on without it and says so. With a
// submission limit (Gradescope's run_autograder), `grade` decides it first and,
// over it, writes carried-forward results instead of grading
// (submission_limit_option.hpp).
#include <chrono>
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "toolchain/backend_choice.hpp"
#include "exit_codes.hpp"
#include "files/atomic_file.hpp"
#include "files/grader_error.hpp"
#include "files/utf8_text.hpp"
#include "grade/grading.hpp"
#include "grade/leaderboard.hpp"
#include "grade/prairielearn_results.hpp"
#include "grade/reports.hpp"
#include "grade/terminal_colour.hpp"
#include "process/run.hpp"
#include "profile/profile_report.hpp"
#include "sandbox/sandbox.hpp"
#include "submission_limit_option.hpp"

namespace gpulab::cli {
namespace {
struct GradeArgs {
  std::string lab;
  std::string submission;
  std::string backend = "auto";
  std::string performance = "auto";
  std::string arch = "sm_90";
  std::string format = "gradescope";
  std::string out;
  std::string visibility;
  std::vector<std::string> parts;
  bool no_large = false;
  bool no_hidden = false;
  bool no_cache = false;
  bool sanitize = false;
  bool counters = false;
  bool profile = false;  // test: print the emulator's profile tables
  bool no_sandbox = false;
  std::string sandbox = "bwrap";
  SubmissionLimitArgs limit;
  bool leaderboard = false;
  bool timings = false;  // grade: print where the grading's time went
};

grade::GradeResult run_grading(const GradeArgs& a, bool student_view) {
  const LabSpec lab = grade::load_lab(a.lab);
  grade::GradeOptions o;
  o.backend = toolchain::choose_backend(a.backend);
  o.include_large = !a.no_large;
  o.include_hidden = !a.no_hidden && !student_view;
  o.hidden_visibility = a.visibility;
  o.use_cache = !a.no_cache;
  o.sandbox = a.no_sandbox ? sandbox::Mode::none : sandbox::parse_mode(a.sandbox);

  o.only_parts = a.parts;
  o.sanitize = a.sanitize;
  o.counters = a.counters;
  o.cuda_arch = a.arch;
  o.performance = a.performance == "on"    ? grade::PerformanceMode::on
                  : a.performance == "off" ? grade::PerformanceMode::off
                                           : grade::PerformanceMode::automatic;
  for (const std::string& p : a.parts) lab.part(p);  // a clear error for a misspelt part
  return grade::grade_submission(lab, a.submission, o);
}

// `gpulab test --profile`: the emulator's profile of each part's checked cases.
void print_profiles(const grade::GradeResult& r) {
  bool any = false;
  for (const grade::PartResult& p : r.parts) {
    if (!p.profile) continue;
    any = true;
    fmt::print("\npart {}: ", p.name);
    std::fputs(files::valid_utf8(profile::profile_text(*p.profile)).c_str(), stdout);
  }
  if (!any) {
    fmt::print(
        "\nNo profile: it is made by the emulator's checking build, which runs the committed public "
        "cases (use --backend emu; on a GPU use Nsight Compute).\n");
  }
}

void add_common(CLI::App* cmd, GradeArgs& a) {
  cmd->add_option("lab", a.lab, "the lab (a folder of assignments/)")->required();
  cmd->add_option("submission", a.submission, "the student's .cu file, or the folder they handed in")
      ->required()
      ->check(CLI::ExistingPath);
  cmd->add_option("--backend", a.backend, "auto (GPU if present, else emulator), emu or cuda")
      ->check(CLI::IsMember({"auto", "emu", "cuda"}));
  cmd->add_option("--part", a.parts, "grade only this part (repeatable)");
  cmd->add_option("--arch", a.arch, "GPU architecture for the cuda backend (default sm_90: H100, H200)");
  cmd->add_option("--performance", a.performance,
                  "score speed: auto (on a GPU only), on (also on the emulator, which times the CPU), off")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  cmd->add_flag("--no-large", a.no_large, "skip the large public cases (faster)");
  cmd->add_flag("--no-cache", a.no_cache, "recompile even if an identical build is cached");
  cmd->add_flag("--counters", a.counters,
                "also count one case's memory requests per kernel: with Nsight Compute on a GPU, with the "
                "emulator's profile on the emulator (compare two results files with `gpulab counters`)");
  cmd->add_flag("--sanitize", a.sanitize,
                "GPU only: also run one case per part under compute-sanitizer (memcheck, racecheck, synccheck, "
                "initcheck) and report its findings by kernel and source line");
  cmd->add_option("--sandbox", a.sandbox,
                  "isolation of the submission: bwrap (bubblewrap's namespaces, the default), user (an unprivileged "
                  "user without namespaces, where gpulab runs as root and bwrap cannot start: Gradescope), auto "
                  "(bwrap where it starts, else user), none (= --no-sandbox); see docs/security.md")
      ->check(CLI::IsMember(sandbox::mode_names()));
  cmd->add_flag("--no-sandbox", a.no_sandbox,
                "compile and run the submission without the bubblewrap sandbox (only where the machine itself is a "
                "throw-away container; see docs/security.md)");
}

// To stdout, or to `out` whole or not at all (an interrupted or failed write leaves no half
// results file to be read). False, with the reason printed, when it could not be written.
bool write_results(const std::string& out, const std::string& text) {
  if (out.empty()) {
    std::fputs(text.c_str(), stdout);
    return true;
  }
  try {
    files::write_file_atomically(out, text);
    return true;
  } catch (const files::GraderError& e) {
    fmt::print(stderr, "gpulab: cannot write the results: {}\n", e.what());
    return false;
  }
}
}  // namespace

void add_grade_commands(CLI::App& app, Action& action) {
  auto g = std::make_shared<GradeArgs>();
  CLI::App* grade_cmd = app.add_subcommand("grade", "Grade a submission and write a results file");
  add_common(grade_cmd, *g);
  grade_cmd
      ->add_option("--format", g->format,
                   "gradescope (results.json), prairielearn (PrairieLearn's results.json), json (per-dataset "
                   "detail) or text")
      ->check(CLI::IsMember({"gradescope", "prairielearn", "json", "text"}));
  grade_cmd->add_option("--out", g->out, "write the results here instead of stdout");
  grade_cmd
      ->add_option("--hidden-visibility", g->visibility,
                   "Gradescope visibility of hidden cases (default: lab.json's hidden.visibility)")
      ->check(CLI::IsMember(gradescope_visibilities()));
  grade_cmd->add_flag("--no-hidden", g->no_hidden, "do not grade hidden cases even if the secret seed is set");
  add_submission_limit_options(grade_cmd, g->limit);
  grade_cmd->add_flag("--leaderboard", g->leaderboard,
                      "add Gradescope's leaderboard (each part's throughput and time) to results.json (--format "
                      "gradescope; the other formats ignore it); GPU only");
  grade_cmd->add_flag("--timings", g->timings,
                      "also print on stderr where the grading's time went: each build (cache hit or not), the audit, "
                      "the datasets, each case's child (start, setup, call, finish), reading back and comparing");
  grade_cmd->callback([g, &action] {
    action = [g] {
      const auto started = std::chrono::steady_clock::now();
      const std::optional<SubmissionLimitCheck> limit = check_submission_limit(g->limit, g->format);
      if (limit && !limit->decision.grade) {
        const auto seconds = std::chrono::ceil<std::chrono::seconds>(std::chrono::steady_clock::now() - started);
        const nlohmann::json carried =
            bundle::carried_forward_results(limit->metadata, limit->decision, static_cast<int>(seconds.count()));
        if (!write_results(g->out, files::dump_json(carried, 2) + "\n")) return exit_code::cannot_write;
        fmt::print(stderr, "score: {} (carried forward, not graded: over the submission limit)\n",
                   carried.value("score", nlohmann::json()).dump());
        return exit_code::over_submission_limit;
      }
      const grade::GradeResult r = run_grading(*g, false);
      std::vector<grade::LeaderboardPart> board;
      // Other formats ignore it, so that the Gradescope bundle's grade arguments suit its reference check too.
      if (g->leaderboard && g->format == "gradescope") {
        board = grade::leaderboard_parts(grade::load_lab(g->lab), r, g->performance != "off");
        if (board.empty()) {
          fmt::print(stderr, "gpulab: no leaderboard in the results: {}\n",
                     r.backend != "cuda"       ? "speed is measured on a GPU only (--backend cuda)"
                     : g->performance == "off" ? "speed was not scored (--performance off)"
                                               : "no graded part of this lab scores speed");
        }
      }
      std::string text;
      if (g->format == "gradescope") {
        nlohmann::json results = grade::gradescope_results(r, board);
        if (limit) bundle::add_submission_limit_note(results, limit->decision);
        text = files::dump_json(results, 2) + "\n";
      } else if (g->format == "prairielearn") {
        text = files::dump_json(grade::prairielearn_results(r), 2) + "\n";
      } else if (g->format == "json") {
        text = files::dump_json(grade::detailed_results(r), 2) + "\n";
      } else {
        // Coloured only on a terminal (stdout, no --out) and without NO_COLOR.
        text = files::valid_utf8(grade::text_report(r, g->out.empty() && grade::colour_wanted(stdout), true));
      }
      if (!write_results(g->out, text)) return exit_code::cannot_write;
      if (g->timings) std::fputs(grade::timings_text(r.timings).c_str(), stderr);
      fmt::print(stderr, "score: {:g} / {:g}\n", r.score, r.max_score);
      if (!r.not_graded.empty()) {
        fmt::print(stderr, "gpulab: the submission was not graded: {}; it scores 0 (the results say why)\n",
                   files::valid_utf8(r.not_graded));
        return exit_code::did_not_compile;
      }
      if (!r.compiled) {
        fmt::print(stderr, "gpulab: the submission did not compile; it scores 0 (compiler messages in the results)\n");
        return exit_code::did_not_compile;
      }
      return exit_code::ok;
    };
  });

  auto t = std::make_shared<GradeArgs>();
  CLI::App* test_cmd = app.add_subcommand("test", "Check a submission against the public datasets, with hints");
  add_common(test_cmd, *t);
  test_cmd->add_flag("--profile", t->profile,
                     "emulator: print each part's profile (memory requests per source line, bank conflicts, "
                     "atomics, divergence, occupancy) with the worst lines");
  test_cmd->callback([t, &action] {
    action = [t] {
      grade::GradeResult r;
      try {
        r = run_grading(*t, true);
      } catch (const sandbox::SandboxUnavailable& e) {
        // A student testing their own code: run it as they would run it themselves, with the limits.
        const std::string why = e.what();
        fmt::print(stderr,
                   "gpulab: note: testing without the sandbox, which cannot start here ({}); "
                   "`gpulab grade` refuses instead. See docs/security.md.\n",
                   why.substr(0, why.find('\n')));
        t->no_sandbox = true;
        r = run_grading(*t, true);
      }
      std::fputs(files::valid_utf8(grade::text_report(r, grade::colour_wanted(stdout), true)).c_str(), stdout);
      if (t->profile) print_profiles(r);
      return r.compiled && r.score >= r.max_score - 1e-9 ? exit_code::ok : exit_code::not_all_good;
    };
  });
}

}  // namespace gpulab::cli
