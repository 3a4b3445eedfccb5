#!/usr/bin/env bash
# scripts/check-layers.sh on small made-up trees: it passes a tree that keeps to its layers and
# fails, naming file:line, the include, both folders and their bands, each way of breaking them:
# an include up a band (by folder name, by a relative path, through a folder's include/), a
# cycle within a band, a folder missing from the table, a table entry without its folder, an
# include with no CMake link behind it and a CMake link up a band.
#   layer_check_catches.sh CHECK_LAYERS_SH WORK_DIR
set -uo pipefail
check=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
failures=0

# grader/ of the made-up project: top over mid1/mid2 over base; top includes mid1 and mid2,
# mid1 includes mid2 (sideways) and base; top includes base's public header through base/include.
make_tree() {
  local t=$1
  mkdir -p "$t"/{top,mid1,mid2,base/include/pkg}
  cat >"$t/layers.txt" <<'EOF'
# test layers
top
mid1 mid2   # a band of two
base
EOF
  printf '#include "mid1/m1.hpp"\n#include "mid2/m2.hpp"\n#include "pkg/api.hpp"\n#include "t.hpp"\n' >"$t/top/t.cpp"
  printf '#pragma once\n' >"$t/top/t.hpp"
  printf '#include "mid2/m2.hpp"\n#include "base/b.hpp"\n' >"$t/mid1/m1.cpp"
  printf '#pragma once\n#include <vector>\n' >"$t/mid1/m1.hpp"
  printf '#include "m2.hpp"\n#include "base/b.hpp"\n' >"$t/mid2/m2.cpp"
  printf '#pragma once\n' >"$t/mid2/m2.hpp"
  printf '#include "b.hpp"\n#include "pkg/api.hpp"\n' >"$t/base/b.cpp"
  printf '#pragma once\n' >"$t/base/b.hpp"
  printf '#pragma once\n' >"$t/base/include/pkg/api.hpp"
  printf 'add_library(lib_top STATIC t.cpp)\ntarget_link_libraries(lib_top PRIVATE lib_mid1\n  lib_mid2)  # lines\n' \
    >"$t/top/CMakeLists.txt"
  printf 'add_library(lib_mid1 STATIC m1.cpp)\ntarget_link_libraries(lib_mid1 PUBLIC lib_mid2 PRIVATE lib_base)\n' \
    >"$t/mid1/CMakeLists.txt"
  printf 'add_library(lib_mid2 STATIC m2.cpp)\ntarget_link_libraries(lib_mid2 PRIVATE lib_base)\n' >"$t/mid2/CMakeLists.txt"
  printf 'add_library(lib_base STATIC b.cpp)\n' >"$t/base/CMakeLists.txt"
}

# expect NAME STATUS [TEXT...]: the check of $tree exits with STATUS and prints every TEXT.
expect() {
  local name=$1 status=$2
  shift 2
  local out rc
  out=$(bash "$check" "$tree" 2>&1)
  rc=$?
  if [ "$rc" != "$status" ]; then
    echo "FAIL ($name): exit code $rc, expected $status; it printed:"
    echo "$out"
    ((++failures))
    return
  fi
  for text in "$@"; do
    if ! grep -qF -- "$text" <<<"$out"; then
      echo "FAIL ($name): the output lacks: $text"
      echo "it printed:"
      echo "$out"
      ((++failures))
      return
    fi
  done
  echo "ok: $name"
}

n=0
fresh() {
  tree=$work/case$((++n))/grader
  make_tree "$tree"
}

fresh
expect "a tree that keeps to its layers passes" 0 "layers: 4 folders in 3 bands"

fresh
printf '#include "b.hpp"\n\n#include "top/t.hpp"\n' >"$tree/base/b.cpp"
expect "an include up a band" 1 \
  "$tree/base/b.cpp:3: #include \"top/t.hpp\" goes up a layer" \
  "base (band 3 of 3, \"base\") may not include top (band 1 of 3, \"top\")" \
  "Move the shared code down to base"

fresh
printf '#include "../top/t.hpp"\n' >"$tree/mid2/m2.hpp"
expect "an include up a band by a relative path" 1 \
  "$tree/mid2/m2.hpp:1: #include \"../top/t.hpp\" goes up a layer" \
  "mid2 (band 2 of 3, \"mid1 mid2\") may not include top (band 1 of 3, \"top\")"

fresh
mkdir -p "$tree/top/include/up" && printf '#pragma once\n' >"$tree/top/include/up/high.hpp"
printf '#include "up/high.hpp"\n' >>"$tree/base/b.hpp"
expect "an include up a band through a folder's include/" 1 \
  "$tree/base/b.hpp:2: #include \"up/high.hpp\" goes up a layer" "may not include top"

fresh
printf '#include "mid1/m1.hpp"\n' >>"$tree/mid2/m2.hpp"
expect "a cycle within a band" 1 \
  "the folders of band 2 (\"mid1 mid2\") include each other in a cycle: mid1 -> mid2 -> mid1" \
  "$tree/mid1/m1.cpp:1: #include \"mid2/m2.hpp\"" \
  "$tree/mid2/m2.hpp:2: #include \"mid1/m1.hpp\""

fresh
mkdir -p "$tree/stray"
expect "a folder the table does not list" 1 "$tree/stray/: a folder that $tree/layers.txt does not list"

fresh
sed -i 's/^base$/base gone/' "$tree/layers.txt"
expect "a table entry without its folder" 1 "$tree/layers.txt:4: gone is listed but $tree/gone/ does not exist"

fresh
printf 'add_library(lib_mid2 STATIC m2.cpp)\n' >"$tree/mid2/CMakeLists.txt"
expect "an include with no CMake link behind it" 1 \
  "$tree/mid2/m2.cpp:2: #include \"base/b.hpp\": mid2 includes base, but no target of $tree/mid2/ links one of base's (lib_base)"

fresh
printf 'target_link_libraries(lib_base PRIVATE lib_top)\n' >>"$tree/base/CMakeLists.txt"
expect "a CMake link up a band" 1 "$tree/base/CMakeLists.txt: lib_base links lib_top, a target of top (band 1 of 3"

if [ "$failures" -gt 0 ]; then
  echo "$failures case(s) failed"
  exit 1
fi
echo "the layer check catches every case"
