#!/usr/bin/env bash
# Runs the real db_bench binary on tiny databases: one JSON row per configuration with
# every present key found and no absent key found, the text table with its comparisons,
# --configs=list, the suites in --help, and exit status 2 with one line for each bad
# flag value.
set -uo pipefail

bench="$1"
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/bench/bench_test_lib.sh"

tiny=(--keys=20000 --lookups=500 --reps=2 --dir="$tmp")

for args in "--keys=0" "--lookups=0" "--reps=0" "--format=xml" "--stores=mysql" \
            "--configs=nosuch" "--bogus=1" "--keys=abc" "--suite=nosuch"; do
  expect_usage_error "$args" "$bench" "${tiny[@]}" $args
done

# --help says how long each suite takes.
"$bench" --help >"$tmp/help" 2>&1
for suite in headline full; do
  grep -qE "^  $suite +about [0-9.]+ (seconds|minutes?)" "$tmp/help" ||
    fail "--help gives no duration for $suite: $(cat "$tmp/help")"
done

"$bench" --configs=list >"$tmp/out" 2>"$tmp/err" || fail "--configs=list failed"
for name in rocksdb.bloom rocksdb.ribbon sstfilter.native sstfilter.per_level \
            leveldb.bloom leveldb+sstfilter.native; do
  grep -qx "$name" "$tmp/out" || fail "--configs=list lacks $name"
done

# Every configuration, JSON: 2 reps x 500 lookups of each kind; the RocksDB ones
# settled and again with two flushes in L0.
"$bench" "${tiny[@]}" --format=json >"$tmp/json" 2>"$tmp/err" || fail "json run: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/json")" -eq 10 ] || fail "want 10 JSON rows, got: $(cat "$tmp/json")"
[ "$(grep -c '"tree":"settled"' "$tmp/json")" -eq 6 ] || fail "want 6 settled rows: $(cat "$tmp/json")"
[ "$(grep -c '"store":"rocksdb","config":"[a-z._]*","tree":"2 flushes in L0".*"files_per_level":\[2,' \
     "$tmp/json")" -eq 4 ] || fail "want 4 RocksDB rows with 2 tables in L0: $(cat "$tmp/json")"
while read -r row; do
  for field in '"store":' '"tree":' '"bits_per_key":' '"files_per_level":' '"lookups_per_second":' \
               '"data_reads_per_lookup":' '"filter_bytes":'; do
    [[ "$row" == *"$field"* ]] || fail "row lacks $field: $row"
  done
  [[ "$row" == *'"absent":{'*'"found":0,'* ]] || fail "an absent key was found: $row"
  [[ "$row" == *'"present":{'*'"found":1000,"lookups":1000'* ]] ||
    fail "a present key was not found: $row"
done <"$tmp/json"

# The text table with the comparisons the README quotes; the databases are removed.
# --keys replaces the full suite's count.
"$bench" "${tiny[@]}" --suite=full --stores=rocksdb --configs=rocksdb.bloom,sstfilter.native \
  >"$tmp/text" 2>"$tmp/err" || fail "table run: $(cat "$tmp/err")"
for tree in "settled" "2 flushes in L0"; do
  grep -q "absent lookups/s, $tree: sstfilter.native / rocksdb.bloom" "$tmp/text" ||
    fail "no ratio line for the $tree tree: $(cat "$tmp/text")"
done
grep -q "^20000 keys of 16 bytes" "$tmp/text" || fail "--keys did not replace the suite's: $(cat "$tmp/text")"
[ -z "$(ls -A "$tmp" | grep -v -e '^out$' -e '^err$' -e '^json$' -e '^text$' -e '^help$')" ] ||
  fail "databases left behind: $(ls "$tmp")"

finish db_bench_test
