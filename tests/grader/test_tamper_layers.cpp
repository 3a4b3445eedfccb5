// The layers behind the audit, one by one (docs/security.md, "In-process
// tampering"): the tampering exploits of tests/gpu/speed/tamper_*.cu built
// the way trusted programs are (no audit of the object), then timed on the
// emulator against the reduction lab with a small timed case. Each must still
// earn no speed points and be marked for review: by the harness's system-call
// filter (a call that makes memory executable, traces, makes the process
// traceable) or by the grader's own clock (a lying timer that wrote no code:
// an interposed function, /proc/self/mem, timing events re-recorded). The
// reference, built and timed the same way, is scored: neither layer fires on
// honest code.
#include <catch2/catch.hpp>

#include <filesystem>
#include <optional>
#include <string>

#include "data/dataset.hpp"
#include "grade/case_runner.hpp"
#include "grade/grading.hpp"
#include "grade/performance.hpp"
#include "grade/submission_runner.hpp"
#include "grade/trusted_program.hpp"
#include "grader_test_support.hpp"

using gpulab::grade::PerformanceStatus;
using gpulab_test::ScopedEnv;
using gpulab_test::TempDir;

namespace {
const std::filesystem::path kRoot = GPULAB_TEST_SOURCE_DIR;

// A project of links to this one whose reduction lab times n = 65536.
struct SmallReduction {
  TempDir home, cache;
  ScopedEnv env_home{"GPULAB_HOME", home.path().string()};
  ScopedEnv env_cache{"GPULAB_CACHE", cache.path().string()};
  SmallReduction() {
    for (const char* d : {"grader", "reference", "datasets", "skeletons"})
      std::filesystem::create_directory_symlink(kRoot / d, home / d);
    std::filesystem::create_directories(home / "assignments/reduction");
    std::string lab = gpulab_test::read_file(kRoot / "assignments/reduction/lab.json");
    const std::string from = R"("sizes": {"n": 67108864})", to = R"("sizes": {"n": 65536})";
    for (size_t at; (at = lab.find(from)) != std::string::npos;) lab.replace(at, from.size(), to);
    gpulab_test::write_file(home / "assignments/reduction/lab.json", lab);
  }
};

// The project, the lab and its trusted programs, built once for every exploit of the test.
struct Layers {
  SmallReduction project;
  gpulab::LabSpec lab = gpulab::grade::load_lab("reduction");
  gpulab::grade::GradeOptions options = [] {
    gpulab::grade::GradeOptions o;
    o.performance = gpulab::grade::PerformanceMode::on;
    return o;
  }();
  gpulab::grade::SubmissionRunner runner{gpulab::sandbox::Mode::none, options.backend};
  gpulab::grade::TrustedPrograms trusted{lab, options, runner};

  // `exploit` built without the audit, its int part timed; nullopt when it does not even link
  // (on the emulator, a definition of the runtime's own function collides with it at the link).
  std::optional<gpulab::grade::PerformanceResult> time_unaudited(const std::string& exploit) {
    std::string problem;
    const std::filesystem::path program =
        trusted.build(kRoot / "tests/gpu/speed" / (exploit + ".cu"), exploit, problem);
    INFO(problem);
    if (program.empty()) {
      CHECK_THAT(problem, Catch::Contains("multiple definition"));
      return std::nullopt;
    }
    TempDir work;
    gpulab::grade::PerformanceScorer scorer(lab, options, work.path(), runner, trusted);
    return scorer.measure(lab.part("int"), program, true);
  }
};
}  // namespace

TEST_CASE("tamper layers: behind the audit, the system-call filter and the grader's own clock", "[tamper]") {
  static Layers layers;
  SECTION("the reference is scored, nothing for review") {
    const gpulab::grade::PerformanceResult r = layers.time_unaudited("reduction_shuffle").value();
    INFO(r.feedback);
    CHECK(r.status == PerformanceStatus::scored);
    CHECK(r.review.empty());
  }
  // Code made writable and executable, or the process made traceable: stopped by the filter.
  for (const auto& [exploit, call] :
       std::vector<std::pair<std::string, std::string>>{{"tamper_mprotect", "mprotect"},
                                                        {"tamper_dlsym", "mprotect"},
                                                        {"tamper_raw_syscall", "mprotect"},
                                                        {"tamper_ptrace", "prctl"}}) {
    DYNAMIC_SECTION(exploit << ": stopped by the system-call filter at " << call) {
      const gpulab::grade::PerformanceResult r = layers.time_unaudited(exploit).value();
      INFO(r.feedback);
      CHECK(r.score == 0);
      CHECK(r.status == PerformanceStatus::failed);
      CHECK_THAT(r.review, Catch::Contains("system-call filter") && Catch::Contains(call));
    }
  }
  // A lying timer that wrote no code (or wrote it before anything of the harness could stop it):
  // the grader's own clock, in another process, sees the time is not the calls'. (tamper_clock.cu
  // is left to the graded test: a clock of the whole process slowed down slows the harness's own
  // budget too, and the parent's time limit, on its own clock, ends the run a minute later.)
  for (const std::string exploit :
       {"tamper_interpose", "tamper_proc_self_mem", "tamper_heap_events", "tamper_constructor"}) {
    DYNAMIC_SECTION(exploit << ": no speed points, for review") {
      const std::optional<gpulab::grade::PerformanceResult> timed = layers.time_unaudited(exploit);
      if (!timed) continue;  // it did not link: nothing ran
      const gpulab::grade::PerformanceResult& r = *timed;
      INFO(r.feedback);
      CHECK(r.score == 0);
      // The heap grooming finds the harness's events only where the heap lays them out as it
      // expects (it depends on the build and the C library); where it finds none, it told no lie
      // and its honest, sixteen-fold time is what is scored: still 0 points (tests/gpu/tamper_exploits.sh
      // accepts the same two outcomes).
      if (exploit == "tamper_heap_events" && r.status == PerformanceStatus::scored) {
        WARN("tamper_heap_events found no timing events to rewrite in this build; its honest time was scored");
        continue;
      }
      CHECK(r.status != PerformanceStatus::scored);
      CHECK_FALSE(r.review.empty());
    }
  }
}
