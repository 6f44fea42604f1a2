#!/usr/bin/env bash
# docs/range_filter.md's tables must be exactly what range_bench prints from
# the committed JSON (docs/results/range_bench.json). To regenerate:
#   bazel run -c opt //bench/range:range_bench -- --json=$PWD/docs/results/range_bench.json
#   bazel run //bench/range:range_bench -- --table_from=$PWD/docs/results/range_bench.json
# and paste the second output between the page's range_bench markers.
set -euo pipefail
expected=$TEST_TMPDIR/expected.md
actual=$TEST_TMPDIR/actual.md
bench/range/range_bench --table_from=docs/results/range_bench.json >"$expected"
sed -n '/^<!-- range_bench:begin -->$/,/^<!-- range_bench:end -->$/p' docs/range_filter.md |
  sed '1d;$d' >"$actual"
if [ ! -s "$actual" ]; then
  echo "docs/range_filter.md has no <!-- range_bench:begin --> ... <!-- range_bench:end --> section"
  exit 1
fi
if ! diff -u "$expected" "$actual"; then
  echo "docs/range_filter.md's tables differ from range_bench --table_from=docs/results/range_bench.json"
  exit 1
fi
echo PASS
