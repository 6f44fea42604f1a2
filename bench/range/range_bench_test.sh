#!/usr/bin/env bash
# range_bench on a small run: it measures, writes JSON that the docs' renderer
# (//docs:results_table --render=range_bench) prints as the tool's own tables,
# every measured rate of the range filter is within its proven bound plus five
# standard deviations of the sampled count, and each bad or replaced flag is
# refused with one line and exit status 2.
set -euo pipefail
bench=bench/range/range_bench
json=$TEST_TMPDIR/range.json
"$bench" --keys=20000 --queries=20000 --filter=grafite:10,grafite:16 --lengths=1,16,1024 \
  --json="$json" >"$TEST_TMPDIR/out.md" 2>"$TEST_TMPDIR/err.txt"
grep -q '^| bits/key | length | uniform' "$TEST_TMPDIR/out.md"
docs/results_table --render=range_bench "$json" | diff -u "$TEST_TMPDIR/out.md" -
python3 - "$json" <<'PY'
import json, math, sys
result = json.load(open(sys.argv[1]))
rows = result["rows"]
assert len(rows) == 2 * 3 * 2, len(rows)
q = result["queries_per_rate"]
for row in rows:
    bound = row["bound"]
    slack = 5 * math.sqrt(bound * (1 - bound) / q) + 1.0 / q
    assert row["range_fpp"] <= bound + slack, row
    assert 0 <= row["prefix_fpp"] <= 1, row
print("PASS")
PY
if "$bench" --keys=abc 2>/dev/null; then echo "bad flag accepted"; exit 1; fi
for bad in --filter=bloom:10 --filter=grafite:fpp=0.01 --filter=grafite:10.5 \
           --filter=grafit:10 --filter=grafite:16:codes=table --bits=10 \
           --table_from="$json"; do
  set +e
  "$bench" --keys=100 "$bad" >/dev/null 2>"$TEST_TMPDIR/bad.txt"
  status=$?
  set -e
  [ "$status" -eq 2 ] || { echo "$bad: exit status $status, want 2"; exit 1; }
  [ "$(wc -l <"$TEST_TMPDIR/bad.txt")" -eq 1 ] || { echo "$bad: not one line"; cat "$TEST_TMPDIR/bad.txt"; exit 1; }
done
