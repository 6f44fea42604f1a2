#!/usr/bin/env bash
# engines/redis/README.md's table must be exactly what redis_bench prints from the
# committed JSON (docs/results/redis_bench.json): no figure typed by hand, and
# no JSON committed without regenerating the table. To regenerate:
#   bazel run -c opt //engines/redis/bench:redis_bench -- --json=$PWD/docs/results/redis_bench.json
#   bazel run //engines/redis/bench:redis_bench -- --readme --table_from=$PWD/docs/results/redis_bench.json
# and paste the second output between engines/redis/README.md's redis_bench markers.
set -euo pipefail
expected=$TEST_TMPDIR/expected.md
actual=$TEST_TMPDIR/actual.md
engines/redis/bench/redis_bench --readme --table_from=docs/results/redis_bench.json >"$expected"
sed -n '/^<!-- redis_bench:begin -->$/,/^<!-- redis_bench:end -->$/p' engines/redis/README.md |
  sed '1d;$d' >"$actual"
if [ ! -s "$actual" ]; then
  echo "engines/redis/README.md has no <!-- redis_bench:begin --> ... <!-- redis_bench:end --> section"
  exit 1
fi
if ! diff -u "$expected" "$actual"; then
  echo "engines/redis/README.md's table differs from redis_bench --readme --table_from=docs/results/redis_bench.json"
  exit 1
fi
echo PASS
