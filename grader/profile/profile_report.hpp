// An emulator profile made readable: the runtime's per-code-address counts
// (gpulab/emu/profile_api.hpp) merged per source line, each kernel's launch
// configurations with the occupancy they allow, and the worst lines, each
// with a sentence saying what is wrong and what to change. Printed by
// `gpulab run --profile` and `gpulab test --profile`, and kept as feedback
// without points by `gpulab grade` on the emulator.
#pragma once
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpulab/emu/profile_api.hpp"
#include "profile/occupancy.hpp"

namespace gpulab::profile {

struct LineProfile {
  std::string file;
  int line = 0;
  std::string function;
  emu::AccessSiteKind kind = emu::AccessSiteKind::global_load;
  emu::SiteCounts counts;
};

struct LaunchProfile {
  emu::ProfiledLaunchConfig config;
  std::optional<Occupancy> occupancy;  // none for an architecture without a table
};

struct KernelReport {
  std::string kernel;
  std::string file;
  int line = 0;
  uint64_t launches = 0;
  uint64_t unprofiled_accesses = 0;
  uint64_t blocks = 0, profiled_blocks = 0;  // sampled when profiled_blocks < blocks
  int registers = 0;                         // per thread, from nvcc; 0: not known
  std::vector<LaunchProfile> launches_by_config;
  std::vector<LineProfile> lines;  // source order
};

enum class Problem { uncoalesced, bank_conflicts, atomic_contention, divergence };

struct Finding {
  Problem problem = Problem::uncoalesced;
  std::string kernel;
  std::string file;
  int line = 0;
  emu::AccessSiteKind kind = emu::AccessSiteKind::global_load;
  double excess = 0;     // wasted transactions (sectors, bank passes, serialised updates, idle lanes / 32)
  std::string sentence;  // "f.cu:23 (kernel 'k'): ..."
  // Whether it is a hint for the student: only findings of the patterns whose counts agree with
  // Nsight Compute (docs/profile-agreement.md) are; `unconfirmed` says why the others are not.
  bool hint = true;
  std::string unconfirmed;
};

struct ProfileReport {
  std::string arch = "sm_90";
  std::string source;  // what ran, e.g. "dataset 18 (n=100000)"; empty for a program run
  std::vector<KernelReport> kernels;
  std::vector<Finding> findings;  // worst first: hints, then the findings that are not hints
};

// Reads the file GPULAB_EMU_PROFILE named, maps addresses to lines and finds the problems.
// `registers` (kernel name -> registers per thread) may be empty. `program`, when given, is
// where every address is looked up, whatever object the file names (the grader's own path
// of a program whose profile it does not trust). Throws std::runtime_error (a message for
// people) for a missing or malformed file.
ProfileReport read_profile(const std::string& path, const std::string& arch,
                           const std::map<std::string, int>& registers = {}, const std::string& program = "");
// Several runs of one program (e.g. the cases of a part) as one profile.
ProfileReport merge_profiles(const std::vector<ProfileReport>& reports);

// The short table of the worst lines and their sentences; `max_findings` lines at most.
std::string profile_text(const ProfileReport& report, size_t max_findings = 5);
nlohmann::json profile_json(const ProfileReport& report);
// Only the worst lines' sentences, one per line (feedback without points); empty when none.
std::string profile_hints(const ProfileReport& report, size_t max_findings = 3);

}  // namespace gpulab::profile
