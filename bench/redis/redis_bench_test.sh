#!/usr/bin/env bash
# redis_bench end to end on a tiny load: its table, its JSON (read back by
# --table_from into the same table), and a usage error for a bad flag.
set -euo pipefail
bench=bench/redis/redis_bench
out=$TEST_TMPDIR/out.json
"$bench" --keys=2000 --single_ops=200 --pipelined_ops=2000 --rounds=1 \
  --json="$out" >"$TEST_TMPDIR/table.md" 2>"$TEST_TMPDIR/log"
for row in '| sstfilter |' '| set |' '| k-command |' '| k-command, 1 trip |'; do
  grep -qF "$row" "$TEST_TMPDIR/table.md" || { echo "no row $row"; cat "$TEST_TMPDIR/table.md"; exit 1; }
done
"$bench" --table_from="$out" >"$TEST_TMPDIR/again.md"
cmp "$TEST_TMPDIR/table.md" "$TEST_TMPDIR/again.md"
if "$bench" --keys=0 2>/dev/null; then echo "--keys=0 accepted"; exit 1; fi
set +e
"$bench" --nonsense 2>/dev/null
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "bad flag: exit $rc, expected 2"; exit 1; }
echo PASS
