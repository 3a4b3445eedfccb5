#!/usr/bin/env bash
# Checks the module boundaries of grader/ against its layer table, grader/layers.txt:
#   - no #include "folder/..." goes up a band (a folder includes its own band or those below);
#   - the folders of one band do not include each other in a cycle;
#   - every folder of grader/ is in the table, and every folder in the table exists;
#   - a folder's CMake target links no target of a higher band, and links (directly or through
#     other targets) a target of every folder that its files include.
# Includes are resolved as the compiler does: next to the including file, then from grader/,
# then from a folder's include/ (the emulator's "gpulab/emu/..."); includes within a folder
# and of other libraries are not checked.
#   check-layers.sh [GRADER_DIR]     (default: the grader/ beside this script's folder)
# Exit 0 when the tree keeps to its layers, 1 with one message per problem when it does not,
# 2 when the table or the folder cannot be read.
set -euo pipefail
grader=${1:-$(dirname "$0")/../grader}
grader=${grader%/}
table=$grader/layers.txt
if [ ! -d "$grader" ]; then
  echo "check-layers: '$grader' is not a folder (give the grader/ folder of gpulab)" >&2
  exit 2
fi
if [ ! -f "$table" ]; then
  echo "check-layers: $table is missing: it lists the layers of $grader, one band per line" >&2
  exit 2
fi

# One record per fact, tab-separated, for the awk program below:
#   D folder | T line text | P path | I path line include | C folder cmake-file contents
{
  (cd "$grader" && find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' | sed 's|^\./|D\t|')
  awk '{ printf "T\t%d\t%s\n", NR, $0 }' "$table"
  (cd "$grader" && find . -type f ! -path '*/.*' | sed 's|^\./|P\t|')
  (cd "$grader" && grep -rnE --exclude='*.md' --exclude='*.txt' \
     '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' -- * || true) |
    sed -E 's|^([^:]*):([0-9]+):.*#[[:space:]]*include[[:space:]]*"([^"]+)".*|I\t\1\t\2\t\3|'
  (cd "$grader" && find . -mindepth 2 -name CMakeLists.txt ! -path '*/.*' | sort) | while read -r f; do
    f=${f#./}
    # Comments dropped and the file on one line: a command may span lines.
    printf 'C\t%s\t%s\t%s\n' "${f%%/*}" "$f" "$(sed 's/#.*//' "$grader/$f" | tr '\n\t' '  ')"
  done
} | awk -F'\t' -v shown="$grader" -v table_name="$table" '
function band_text(b) { return "band " b " of " nbands ", \"" members[b] "\"" }
function problem(text) { print text "\n"; ++problems }
function normalise(path,   parts, n, i, out, k, kept) {
  n = split(path, parts, "/"); k = 0
  for (i = 1; i <= n; ++i) {
    if (parts[i] == "" || parts[i] == ".") continue
    if (parts[i] == "..") { if (k == 0) return ""; --k; continue }
    kept[++k] = parts[i]
  }
  out = ""
  for (i = 1; i <= k; ++i) out = out (i > 1 ? "/" : "") kept[i]
  return out
}
function first_part(path) { return substr(path, 1, index(path "/", "/") - 1) }
# The folder of grader/ that an include of `file` names, or "" for none.
function include_folder(file, inc,   dir, rel, f) {
  if (index(inc, "/") == 0) return ""
  dir = file; sub(/\/[^\/]*$/, "", dir)
  rel = normalise(dir "/" inc)
  if (rel != "" && (rel in paths)) return first_part(rel)
  if (substr(inc, 1, 1) != "." && (first_part(inc) in folder)) return first_part(inc)
  for (f in folder) if ((f "/include/" inc) in paths) return f
  return ""
}
# Same-band cycles: depth-first from `start`, through folders named after it (each cycle once).
function find_cycle(u, start, depth,   list, n, i, v) {
  on_path[u] = 1; path_at[depth] = u
  n = split(out_same[u], list, " ")
  for (i = 1; i <= n; ++i) {
    v = list[i]
    if (v == start) { cycle_length = depth + 1; return 1 }
    if (v > start && !on_path[v] && !dead[v]) { if (find_cycle(v, start, depth + 1)) return 1 }
  }
  on_path[u] = 0; dead[u] = 1
  return 0
}
function reaches(t, goal,   list, n, i) {
  if (t == goal) return 1
  if (t in seen) return 0
  seen[t] = 1
  n = split(links[t], list, " ")
  for (i = 1; i <= n; ++i) if (reaches(list[i], goal)) return 1
  return 0
}
$1 == "D" { folder[$2] = 1; next }
$1 == "P" { paths[$2] = 1; next }
$1 == "T" {
  text = $3; sub(/#.*/, "", text)
  n = split(text, names, " ")
  if (n == 0) next
  ++nbands
  for (i = 1; i <= n; ++i) {
    if (names[i] in band) {
      problem(table_name ":" $2 ": " names[i] " is listed twice (also in band " band[names[i]] "); list each folder once")
      continue
    }
    band[names[i]] = nbands; table_line[names[i]] = $2
    members[nbands] = members[nbands] (members[nbands] == "" ? "" : " ") names[i]
  }
  next
}
$1 == "I" { ++nincludes; inc_file[nincludes] = $2; inc_line[nincludes] = $3; inc_text[nincludes] = $4; next }
$1 == "C" {
  text = $4
  # add_library(NAME ...) and add_executable(NAME ...): the targets this folder defines.
  rest = text
  while (match(rest, /add_(library|executable)[ ]*\([ ]*[A-Za-z0-9_.+-]+/)) {
    name = substr(rest, RSTART, RLENGTH); sub(/.*\([ ]*/, "", name)
    target_folder[name] = $2; target_file[name] = $3
    folder_targets[$2] = folder_targets[$2] (folder_targets[$2] == "" ? "" : " ") name
    rest = substr(rest, RSTART + RLENGTH)
  }
  rest = text
  while (match(rest, /target_link_libraries[ ]*\(/)) {
    rest = substr(rest, RSTART + RLENGTH)
    depth = 1; args = ""
    for (i = 1; i <= length(rest) && depth > 0; ++i) {
      c = substr(rest, i, 1)
      if (c == "(") ++depth
      else if (c == ")" && --depth == 0) break
      args = args c
    }
    rest = substr(rest, i + 1)
    ++nlinkcmds; link_args[nlinkcmds] = args
  }
  next
}
END {
  if (nbands == 0) { print table_name ": lists no band; write one band per line, top band first"; exit 2 }
  for (f in folder) if (!(f in band)) {
    problem(shown "/" f "/: a folder that " table_name " does not list.\n" \
            "  Add it to the band it belongs in: the folders it includes must be in that band or below it,\n" \
            "  the folders that include it in that band or above it.")
  }
  for (f in band) if (!(f in folder)) {
    problem(table_name ":" table_line[f] ": " f " is listed but " shown "/" f "/ does not exist; remove it from the table")
  }
  # Includes between folders: up a band is an error, same-band edges are kept for the cycle check.
  for (k = 1; k <= nincludes; ++k) {
    from = first_part(inc_file[k])
    if (!(from in band)) continue
    to = include_folder(inc_file[k], inc_text[k])
    if (to == "" || to == from || !(to in band)) continue
    where = shown "/" inc_file[k] ":" inc_line[k] ": #include \"" inc_text[k] "\""
    if (!((from, to) in first_use)) { first_use[from, to] = where; ++ninclude_edges }
    if (band[to] < band[from]) {
      problem(where " goes up a layer:\n" \
              "  " from " (" band_text(band[from]) ") may not include " to " (" band_text(band[to]) ").\n" \
              "  Move the shared code down to " from " or a folder below it (bands " band[from] " to " nbands \
              " of " table_name "), or move the including code up to " to "\x27s band or above.")
    } else if (band[to] == band[from] && !((from, to) in same_edge)) {
      same_edge[from, to] = 1
      out_same[from] = out_same[from] (out_same[from] == "" ? "" : " ") to
    }
  }
  for (s in out_same) {
    split("", on_path); split("", dead)
    if (!find_cycle(s, s, 0)) continue
    chain = ""; evidence = ""
    for (i = 0; i < cycle_length; ++i) {
      a = path_at[i]; b = (i + 1 < cycle_length) ? path_at[i + 1] : s
      chain = chain a " -> "
      evidence = evidence "\n  " first_use[a, b]
    }
    problem(table_name ": the folders of band " band[s] " (\"" members[band[s]] "\") include each other in a cycle: " \
            chain s evidence "\n" \
            "  Move the code they share down to a folder of a lower band, or split the band so that one of\n" \
            "  them sits below the other and only the upper one includes the lower.")
  }
  # CMake: links that go up a band, and includes that no link stands behind.
  for (k = 1; k <= nlinkcmds; ++k) {
    n = split(link_args[k], words, " ")
    t = words[1]
    if (!(t in target_folder)) continue
    for (i = 2; i <= n; ++i) {
      if (!(words[i] in target_folder)) continue
      links[t] = links[t] " " words[i]
      from = target_folder[t]; to = target_folder[words[i]]
      if ((from in band) && (to in band) && band[to] < band[from]) {
        problem(shown "/" target_file[t] ": " t " links " words[i] ", a target of " to " (" band_text(band[to]) \
                "), above " from " (" band_text(band[from]) ").\n" \
                "  A folder\x27s target links only targets of its own band or below; move the code it needs down.")
      }
    }
  }
  for (key in first_use) {
    split(key, pair, SUBSEP); from = pair[1]; to = pair[2]
    if (folder_targets[from] == "" || folder_targets[to] == "") continue
    covered = 0
    nf = split(folder_targets[from], ft, " "); nt = split(folder_targets[to], tt, " ")
    for (i = 1; i <= nf && !covered; ++i)
      for (j = 1; j <= nt && !covered; ++j) { split("", seen); covered = reaches(ft[i], tt[j]) }
    if (!covered) {
      problem(first_use[key] ": " from " includes " to ", but no target of " shown "/" from \
              "/ links one of " to "\x27s (" folder_targets[to] ").\n" \
              "  Add it to target_link_libraries in " shown "/" from "/CMakeLists.txt: PUBLIC if a header of " from \
              " includes it, else PRIVATE.")
    }
  }
  if (problems > 0) {
    print problems " layering problem" (problems == 1 ? "" : "s") " in " shown " (table: " table_name ")"
    exit 1
  }
  nfolders = 0; for (f in folder) ++nfolders
  print "layers: " nfolders " folders in " nbands " bands; " ninclude_edges " folder-to-folder includes; all go down or sideways without a cycle, and CMake links agree"
}'
