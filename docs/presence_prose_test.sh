#!/usr/bin/env bash
# docs/presence_filtered_db.md's prose quotes no figure the runs measure, so that every
# figure on the page is in its results blocks, which //docs:results_table_test checks
# against the committed JSON: outside the blocks and code blocks, no decimal number
# (release numbers such as 9.7.4 aside) and no ratio but a target's ("10× target").
set -euo pipefail
page=docs/presence_filtered_db.md
grep -q '^<!-- results:begin presence ' "$page" ||
  { echo "$page has no presence results block"; exit 1; }
typed=$(awk '/^```/ { code = !code; next }
             /^<!-- results:begin / { generated = 1 }
             /^<!-- results:end -->$/ { generated = 0; next }
             !generated && !code { print FNR ": " $0 }' "$page" |
  grep -E '(^|[^0-9.])[0-9]+\.[0-9]+([^0-9.]|$)|[0-9]+(\.[0-9]+)? ?×' |
  grep -vE '^[0-9]+: .*[0-9]+ ?× target' || true)
if [ -n "$typed" ]; then
  echo "$page types figures outside its results blocks:"
  echo "$typed"
  exit 1
fi
echo PASS
