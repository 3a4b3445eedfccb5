// `gpulab bundle gradescope <lab> --out autograder.zip`,
// `gpulab bundle prairielearn <lab> --out image.tar.gz` and
// `gpulab bundle student --out kit.tar.gz`: the packages instructors hand to
// Gradescope, to PrairieLearn (as a Docker image) and to students.
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "bundle/gradescope_bundle.hpp"
#include "bundle/prairielearn_bundle.hpp"
#include "bundle/student_kit.hpp"
#include "commands.hpp"
#include "grade/grading.hpp"

namespace gpulab::cli {

void add_bundle_command(CLI::App& app, Action& action) {
  CLI::App* bundle = app.add_subcommand(
      "bundle", "Package the Gradescope autograder, the PrairieLearn grading image or the student kit");
  bundle->require_subcommand(1);

  struct GradescopeArgs {
    std::string lab, out = "autograder.zip", backend = "auto";
    bool no_large = false, no_hidden = false, leaderboard = false;
    int max_per_day = 0;
  };
  auto g = std::make_shared<GradescopeArgs>();
  CLI::App* gs = bundle->add_subcommand("gradescope", "Gradescope's autograder.zip for one lab");
  gs->add_option("lab", g->lab, "the lab")->required();
  gs->add_option("--out", g->out, "the zip to write (default autograder.zip)");
  gs->add_option("--backend", g->backend, "backend on Gradescope: auto (GPU if present, else emulator), emu or cuda")
      ->check(CLI::IsMember({"auto", "emu", "cuda"}));
  gs->add_flag("--no-large", g->no_large, "do not grade the large public cases");
  gs->add_flag("--no-hidden", g->no_hidden, "do not include the hidden seed even if it is set");
  gs->add_option("--max-submissions-per-day", g->max_per_day,
                 "grade at most N submissions per student (or group) in any 24 hours; later ones are not graded "
                 "and keep the last graded score, and the student is told when the next grading is possible")
      ->check(CLI::Range(1, 1000000));
  gs->add_flag("--leaderboard", g->leaderboard,
               "each results.json gets Gradescope's leaderboard: every part's throughput and time (GPU only; turn "
               "the leaderboard on in the assignment's settings too)");
  gs->callback([g, &action] {
    action = [g] {
      const LabSpec lab = grade::load_lab(g->lab);
      if (g->leaderboard && g->backend == "emu") {
        throw std::runtime_error(
            "--leaderboard ranks speed, which is measured on a GPU only: the emu backend has no "
            "leaderboard (use --backend cuda or auto)");
      }
      bundle::GradescopeOptions o;
      o.backend = g->backend;
      if (g->no_large) o.grade_args.push_back("--no-large");
      o.max_submissions_per_day = g->max_per_day;
      if (g->leaderboard) o.grade_args.push_back("--leaderboard");
      const char* secret = std::getenv(lab.hidden_seed_env.c_str());
      if (!g->no_hidden && secret && *secret) o.hidden_seed = secret;
      bundle::write_gradescope_bundle(toolchain::project_root(), lab, o, g->out);
      fmt::print("wrote {}: upload it as the autograder of lab '{}' (Ubuntu 22.04 base image)\n", g->out, lab.lab);
      if (o.max_submissions_per_day > 0) {
        fmt::print(
            "at most {} submission{} per student graded in any 24 hours (from Gradescope's "
            "submission_metadata.json)\n",
            o.max_submissions_per_day, o.max_submissions_per_day == 1 ? "" : "s");
      }
      if (o.hidden_seed.empty()) {
        fmt::print("no hidden cases: {} is not set (set it to grade hidden cases on Gradescope)\n",
                   lab.hidden_seed_env);
      } else {
        fmt::print("it holds the hidden seed from {} (file hidden-seed): keep {} private\n", lab.hidden_seed_env,
                   g->out);
      }
      if (g->leaderboard) {
        fmt::print(
            "results carry a leaderboard (each part's throughput and time, on a GPU): enable the leaderboard "
            "in the assignment's settings on Gradescope\n");
      }
      return 0;
    };
  });

  struct PrairieLearnArgs {
    std::string lab, out;
    bool no_large = false, no_sandbox = false;
  };
  auto pl = std::make_shared<PrairieLearnArgs>();
  CLI::App* pls = bundle->add_subcommand(
      "prairielearn", "The Docker build context of PrairieLearn's external-grader image for one lab (emulator)");
  pls->add_option("lab", pl->lab, "the lab")->required();
  pls->add_option("--out", pl->out, "the .tar.gz to write (default gpulab-prairielearn-<lab>.tar.gz)");
  pls->add_flag("--no-large", pl->no_large, "do not grade the large public cases");
  pls->add_flag("--no-sandbox", pl->no_sandbox,
                "grade without the sandbox, for grader hosts where it cannot start (then the question must have no "
                "hidden seed; see docs/prairielearn.md)");
  pls->callback([pl, &action] {
    action = [pl] {
      const LabSpec lab = grade::load_lab(pl->lab);
      bundle::PrairieLearnOptions o;
      if (pl->no_large) o.grade_args.push_back("--no-large");
      if (pl->no_sandbox) o.grade_args.push_back("--no-sandbox");
      const std::string out = pl->out.empty() ? "gpulab-prairielearn-" + lab.lab + ".tar.gz" : pl->out;
      bundle::write_prairielearn_bundle(toolchain::project_root(), lab, o, out);
      fmt::print(
          "wrote {}: the build context of the grading image of lab '{}' (no reference solution, no hidden "
          "seed). Build and push it:\n"
          "  mkdir img && tar -xzf {} -C img && docker build -t YOU/gpulab-{} img && docker push "
          "YOU/gpulab-{}\n"
          "then set the question's info.json as docs/prairielearn.md shows (entrypoint /gpulab/run_grader)",
          out, lab.lab, out, lab.lab, lab.lab);
      fmt::print("{}\n", pl->no_sandbox ? "; with --no-sandbox the question must not have tests/hidden-seed"
                                        : "; hidden cases: the secret seed goes in the question's tests/hidden-seed");
      return 0;
    };
  });

  struct KitArgs {
    std::string out = "gpulab-kit.tar.gz";
    std::vector<std::string> labs;
  };
  auto k = std::make_shared<KitArgs>();
  CLI::App* kit = bundle->add_subcommand("student", "The student kit: skeletons, assignments, public datasets, grader");
  kit->add_option("--out", k->out, "the .tar.gz to write (default gpulab-kit.tar.gz)");
  kit->add_option("--lab", k->labs, "only this lab (repeatable; default: every lab)");
  kit->callback([k, &action] {
    action = [k] {
      // Every lab the kit holds must load: a misspelt --lab, or a lab.json with a mistake, is reported here.
      for (const std::string& l : bundle::student_kit_labs(toolchain::project_root(), k->labs)) grade::load_lab(l);
      bundle::write_student_kit(toolchain::project_root(), k->labs, k->out);
      fmt::print("wrote {} (no reference solutions, hidden seeds or hidden datasets)\n", k->out);
      return 0;
    };
  });
}

}  // namespace gpulab::cli
