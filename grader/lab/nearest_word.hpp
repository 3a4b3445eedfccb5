// "Did you mean ...?" for lab.json: the known word nearest to a misspelt one
// (a key such as `time_limt_s`, a value such as `unifrom_int`), by edit
// distance with transpositions counted as one edit.
#pragma once
#include <string>
#include <vector>

namespace gpulab {

// Insertions, deletions, substitutions and swaps of neighbouring characters
// (optimal string alignment distance); case-sensitive.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `word`, or "" when none is near enough to be a
// plausible misspelling (at most 2 edits, or a third of the longer word, and
// never the whole word).
std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace gpulab
