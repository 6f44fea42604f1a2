#!/usr/bin/env bash
# docs/presence_filtered_db.md's figures must be exactly what db_bench prints from the
# committed JSON (docs/results/presence_filtered_db.json), so that no figure on the page
# is typed. To regenerate, after the runs the page names:
#   cat headline.json full.json >docs/results/presence_filtered_db.json
#   bazel run //bench:db_bench -- --presence_markdown_from=$PWD/docs/results/presence_filtered_db.json
# and paste the second command's output between the page's db_bench presence markers.
set -euo pipefail
bench="$1"
expected=$TEST_TMPDIR/expected.md
actual=$TEST_TMPDIR/actual.md
"$bench" --presence_markdown_from=docs/results/presence_filtered_db.json >"$expected"
sed -n '/^<!-- db_bench presence:begin -->$/,/^<!-- db_bench presence:end -->$/p' \
  docs/presence_filtered_db.md | sed '1d;$d' >"$actual"
if [ ! -s "$actual" ]; then
  echo "docs/presence_filtered_db.md has no <!-- db_bench presence:begin --> ... end section"
  exit 1
fi
if ! diff -u "$expected" "$actual"; then
  echo "docs/presence_filtered_db.md differs from db_bench" \
    "--presence_markdown_from=docs/results/presence_filtered_db.json"
  exit 1
fi
echo PASS
