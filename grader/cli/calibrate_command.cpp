// `gpulab calibrate <lab>`: times the reference on the timed case of every
// part with speed points, on this machine's GPU, and prints what lab.json
// could say: the reference's speed and spread, and bandwidth thresholds (the
// student-kit fallback) scaled from the reference's fraction of this GPU's
// copy bandwidth.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "commands.hpp"
#include "files/temp_folder.hpp"
#include "grade/grading.hpp"
#include "grade/performance.hpp"
#include "grade/submission_runner.hpp"

namespace gpulab::cli {

void add_calibrate_command(CLI::App& app, Action& action) {
  struct Args {
    std::string lab;
    std::string backend = "cuda";
    std::vector<std::string> parts;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd =
      app.add_subcommand("calibrate", "Time the reference on this GPU and propose lab.json's speed thresholds");
  cmd->add_option("lab", a->lab, "the lab (a folder of assignments/)")->required();
  cmd->add_option("--part", a->parts, "only this part (repeatable)");
  cmd->add_option("--backend", a->backend, "cuda (default), or emu to try the method on the CPU")
      ->check(CLI::IsMember({"emu", "cuda"}));
  cmd->callback([a, &action] {
    action = [a] {
      const LabSpec lab = grade::load_lab(a->lab);
      grade::GradeOptions o;
      o.backend = toolchain::parse_backend(a->backend);
      const files::TempFolder work("calibrate");
      // The reference is the course's own code: it runs without the sandbox.
      const grade::SubmissionRunner runner(sandbox::Mode::none, o.backend);
      grade::TrustedPrograms trusted(lab, o, runner);
      grade::PerformanceScorer scorer(lab, o, work.path(), runner, trusted);
      nlohmann::json proposal = nlohmann::json::object();
      int measured = 0;
      for (const PartSpec& part : lab.parts) {
        if (!a->parts.empty() && std::find(a->parts.begin(), a->parts.end(), part.name) == a->parts.end()) continue;
        if (!part.performance) {
          fmt::print("part {}: lab.json gives it no speed points; nothing to calibrate\n", part.name);
          continue;
        }
        const grade::Calibration c = scorer.calibrate(part);
        ++measured;
        fmt::print("part {} on {}, {}: reference median {:.4f} ms over {} runs (spread {:.1f}%), {:.1f} {}", part.name,
                   c.device, c.case_label, c.seconds * 1e3, c.runs, c.spread * 100, c.rate, c.rate_unit);
        if (c.copy_bandwidth > 0 && c.rate_unit == "GB/s") {
          fmt::print(" = {:.0f}% of the copy bandwidth ({:.0f} GB/s)", c.bandwidth_fraction * 100,
                     c.copy_bandwidth / 1e9);
        }
        fmt::print("\n");
        if (c.spread > 0.05) {
          fmt::print("  the runs spread by {:.0f}%: thresholds finer than that mean little on this machine\n",
                     c.spread * 100);
        }
        nlohmann::json pairs = nlohmann::json::array();
        for (const ScorePoint& p : c.proposed_bandwidth_thresholds) pairs.push_back({p.x, p.fraction});
        if (!pairs.empty()) proposal[part.name] = {{"bandwidth_thresholds", pairs}};
      }
      if (!proposal.empty()) {
        fmt::print(
            "\nProposed for lab.json (each part's \"performance\"; the speed-ratio \"thresholds\" need no "
            "calibration, they are relative to the reference):\n{}\n",
            proposal.dump(2));
      }
      return measured > 0 || a->parts.empty() ? 0 : 1;
    };
  });
}

}  // namespace gpulab::cli
