// report.html's "Leaderboard" section: per part whose speed the GPU scored,
// the students ranked by the median time of the timed case (lower first; the
// throughput, GB/s or GFLOP/s, ranks the same way), as Gradescope's
// leaderboard does (grade/leaderboard.hpp). Only a scored speed ranks: a part
// that failed a case, did not compile, was implausible or not measured is
// counted below the table by reason, never ranked. Names are pseudonyms
// (leaderboard_pseudonyms.hpp) unless the instructor asks for real ones. On a
// class graded on the emulator there is nothing to rank, and the section says so.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "batch/class_results.hpp"

namespace gpulab::report {

struct LeaderboardRow {
  std::string student;  // the label
  std::string shown;    // what the section shows: the label or its pseudonym
  int rank = 0;         // 1 for the fastest; equal times share a rank
  double ms = 0;        // median time of one call on the timed case
  double rate = 0;      // in the part's rate_unit
  double ratio = 0;     // reference time / this time; 0 when no reference was timed
  std::string device;
};

struct PartLeaderboard {
  std::string part;
  std::string rate_unit;                  // "GB/s" or "GFLOP/s"; empty when nobody ranked
  std::vector<LeaderboardRow> rows;       // ranked, fastest first
  std::map<std::string, int> not_ranked;  // why (in words) -> how many students
};

struct ClassLeaderboard {
  bool measured = false;  // some submission was graded on a GPU with speed scored
  bool pseudonyms = false;
  std::vector<PartLeaderboard> parts;  // in lab.json's order, the parts whose speed was scored
  std::vector<std::string> devices;    // the GPUs the ranked times were measured on
  size_t ranked_students() const;
};

// The ranking, with real names (shown = student).
ClassLeaderboard class_leaderboard(const batch::ClassResults& c);
// Shows pseudonyms made with `salt` instead, and orders equal times by them.
void use_pseudonyms(ClassLeaderboard& board, const std::string& salt);
std::string leaderboard_section(const ClassLeaderboard& board);

}  // namespace gpulab::report
