#!/usr/bin/env bash
# range_shapes_bench on a small run: the docs' renderer prints its JSON as the
# tool's own table, every keyed filter's rate is within its proven bound plus
# five standard deviations of the sampled count, and a bad flag is refused
# with one line and exit status 2.
set -euo pipefail
bench=bench/range/range_shapes_bench
json=$TEST_TMPDIR/shapes.json
"$bench" --keys=3000 --queries=3000 --json="$json" >"$TEST_TMPDIR/out.md" \
  2>"$TEST_TMPDIR/err.txt"
grep -q '^| keys | filter | bits/key | w |' "$TEST_TMPDIR/out.md"
docs/results_table --render=range_shapes "$json" | diff -u "$TEST_TMPDIR/out.md" -
python3 - "$json" <<'PY'
import json, math, sys
result = json.load(open(sys.argv[1]))
rows = result["rows"]
assert len(rows) == 4 * 2 * 3 * 2, len(rows)
q = result["queries_per_cell"]
keyed = [row for row in rows if "codes=table" in row["filter"]]
assert len(keyed) == len(rows) // 2
for row in keyed:
    bound = row["bound"]
    slack = 5 * math.sqrt(bound * (1 - bound) / q) + 3.0 / q
    assert row["fpp"] <= bound + slack, row
print("PASS")
PY
for bad in --filter=bloom:10 --keys=0 --filter=grafite:16,grafite:16 \
           --json=/nonexistent/dir/shapes.json; do
  set +e
  "$bench" "$bad" >/dev/null 2>"$TEST_TMPDIR/bad.txt"
  status=$?
  set -e
  [ "$status" -eq 2 ] || { echo "$bad: exit status $status, want 2"; exit 1; }
  [ "$(wc -l <"$TEST_TMPDIR/bad.txt")" -eq 1 ] || { echo "$bad: not one line"; exit 1; }
done
echo "range_shapes_bench_test passed"
