#!/usr/bin/env bash
# docs/architecture.md's table of layers says what grader/layers.txt says: every folder of the
# table, in its band ("| BAND | `FOLDER/` | ..."), and no folder that the table lacks.
#   architecture_doc_lists_layers.sh SOURCE_DIR
set -uo pipefail
src=$1
table=$src/grader/layers.txt
doc=$src/docs/architecture.md
failures=0
band=0
listed=()
while IFS= read -r line; do
  line=${line%%#*}
  read -ra folders <<<"$line"
  [ ${#folders[@]} -eq 0 ] && continue
  band=$((band + 1))
  for f in "${folders[@]}"; do
    listed+=("$f")
    if ! grep -qF "| $band | \`$f/\` |" "$doc"; then
      echo "$doc: the layers table lacks the row \"| $band | \`$f/\` | ... |\" ($f is in band $band of $table)"
      failures=$((failures + 1))
    fi
  done
done <"$table"
while IFS= read -r f; do
  # (A here-string, not a pipe: `grep -q` may stop reading early, and under pipefail printf's
  # SIGPIPE would read as "not listed".)
  if ! grep -qx "$f" <<<"$(printf '%s\n' "${listed[@]}")"; then
    echo "$doc: lists $f/, which $table does not"
    failures=$((failures + 1))
  fi
done < <(grep -oE '^\| [0-9]+ \| `[a-z_]+/` \|' "$doc" | sed -E 's/.*`([a-z_]+)\/`.*/\1/')
if [ "$failures" -gt 0 ]; then
  echo "update the layers table of $doc to match $table"
  exit 1
fi
echo "$doc lists the ${#listed[@]} folders of $table in their $band bands"
