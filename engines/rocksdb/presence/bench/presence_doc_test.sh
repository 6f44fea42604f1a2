#!/usr/bin/env bash
# docs/presence_filtered_db.md's figures must be exactly what db_bench prints from the
# committed JSON (docs/results/presence_filtered_db.json), and its prose may quote none,
# so that no figure on the page is typed. To regenerate, after the runs the page names:
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
# Nor does the prose around the tables type a figure the runs measure: outside the
# generated section and code blocks, no decimal number (release numbers such as 9.7.4
# aside) and no ratio but a target's ("10× target").
typed=$(awk '/^```/ { code = !code; next }
             /^<!-- db_bench presence:begin -->$/ { generated = 1 }
             /^<!-- db_bench presence:end -->$/ { generated = 0; next }
             !generated && !code { print FNR ": " $0 }' docs/presence_filtered_db.md |
  grep -E '(^|[^0-9.])[0-9]+\.[0-9]+([^0-9.]|$)|[0-9]+(\.[0-9]+)? ?×' |
  grep -vE '^[0-9]+: .*[0-9]+ ?× target' || true)
if [ -n "$typed" ]; then
  echo "docs/presence_filtered_db.md types figures outside its generated section:"
  echo "$typed"
  exit 1
fi
echo PASS
