#!/usr/bin/env bash
# redis_bench end to end on a tiny load: its table, its JSON (which the docs'
# renderer, //docs:results_table --render=redis_bench, prints as the same
# table, and a partial one too), and a usage error for a bad flag and for
# each flag replaced by another.
set -euo pipefail
bench=engines/redis/bench/redis_bench
render=(docs/results_table --render=redis_bench)
out=$TEST_TMPDIR/out.json
"$bench" --keys=2000 --single_ops=200 --pipelined_ops=2000 --rounds=1 \
  --json="$out" >"$TEST_TMPDIR/table.md" 2>"$TEST_TMPDIR/log"
for row in '| bloom |' '| lib:redis.set |' '| lib:redis.setbit |' '| lib:redis.setbit.one_trip |'; do
  grep -qF "$row" "$TEST_TMPDIR/table.md" || { echo "no row $row"; cat "$TEST_TMPDIR/table.md"; exit 1; }
done
"${render[@]}" "$out" >"$TEST_TMPDIR/again.md"
cmp "$TEST_TMPDIR/table.md" "$TEST_TMPDIR/again.md"
# A saved file lacking implementations and figures still prints, with "–".
partial=$TEST_TMPDIR/partial.json
echo '{"runs": [{"keys": 1000, "sstfilter": {"memory_bytes": 2000}}]}' >"$partial"
"${render[@]}" "$partial" >"$TEST_TMPDIR/partial.md"
grep -qF 'against the set: – less memory' "$TEST_TMPDIR/partial.md" ||
  { echo "partial table"; cat "$TEST_TMPDIR/partial.md"; exit 1; }
"${render[@]}" --options=readme "$partial" >"$TEST_TMPDIR/partial_readme.md"
grep -qF '10^3 keys: – less server memory' "$TEST_TMPDIR/partial_readme.md" ||
  { echo "partial README table"; cat "$TEST_TMPDIR/partial_readme.md"; exit 1; }
if "$bench" --keys=0 2>/dev/null; then echo "--keys=0 accepted"; exit 1; fi
set +e
"$bench" --nonsense 2>/dev/null
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "bad flag: exit $rc, expected 2"; exit 1; }
for bad in --fpp=0.01 --table_from="$out" --readme --filter=blom:fpp=0.01 --filter=bloom:10 --filter=burr:fpp=0.01 \
           --filter=bloom:fpp=0.01:path=portable; do
  set +e
  "$bench" "$bad" 2>"$TEST_TMPDIR/bad.txt" >/dev/null
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { echo "$bad: exit $rc, expected 2"; exit 1; }
  [ "$(wc -l <"$TEST_TMPDIR/bad.txt")" -eq 1 ] || { echo "$bad: not one line"; cat "$TEST_TMPDIR/bad.txt"; exit 1; }
done
echo PASS
