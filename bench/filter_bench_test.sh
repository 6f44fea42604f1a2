#!/usr/bin/env bash
# Runs the real filter_bench binary: exit status 2 and a one-line message for bad flags,
# --list, JSON rows with every field, the table, the injected false negative (exit 3),
# and the plot.
set -uo pipefail

bench="$1"
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/bench/bench_test_lib.sh"

# Small runs: one tiny filter, one rep, one workload.
tiny=(--keys=1000 --reps=1 --workloads=random16)

# Bad flags: status 2, exactly one line on stderr, nothing on stdout.
for args in "--impls=bloom" "--filter=lib:nosuch" "--keys=0" "--fpp=1.5" "--fpp=0" "--format=xml" \
            "--reps=0" "--bits_per_key=500" "--workloads=zipf" "--bogus=1" \
            "--quick=maybe" "stray" "--keys" "--plot=/nonexistent/dir/fpp.png" \
            "--suite=nosuch" "--suite=full --quick"; do
  expect_usage_error "$args" "$bench" $args
done

# --filter: a malformed spec is a usage error whose one line names the fault.
expect_usage_error "--filter=blom:10" "$bench" --filter=blom:10
grep -qx 'filter_bench: --filter: unknown filter family "blom" (known: bloom, burr, .*)' \
  "$tmp/err" || fail "--filter=blom:10: $(cat "$tmp/err")"
for args in "--filter=bloom:10:" "--filter=bloom:fpp=0.01:bits_per_key=10" \
            "--filter=bloom:10,bloom:10"; do
  expect_usage_error "$args" "$bench" $args
done

# Specs, sized or not, and peers each run as one implementation, named as given.
"$bench" "${tiny[@]}" --filter=lib:rocksdb.fastbloom,bloom:10,burr:fpp=0.01,hybrid \
  --format=json >"$tmp/spec" 2>"$tmp/err" || fail "--filter run failed: $(cat "$tmp/err")"
for impl in lib:rocksdb.fastbloom bloom:10 burr:fpp=0.01 hybrid; do
  [ "$(grep -c "\"impl\":\"$impl\"" "$tmp/spec")" -eq 1 ] || fail "--filter: no one row of $impl"
done

# --list prints every name.
"$bench" --list >"$tmp/list" || fail "--list failed"
for name in bloom bloom:path=portable leveldb burr lib:leveldb.bloom lib:rocksdb.fastbloom \
            lib:rocksdb.legacybloom lib:rocksdb.ribbon random16 sequential varlen lsm6400 lsm3200; do
  grep -q "^  $name " "$tmp/list" || fail "--list lacks $name"
done

# JSON: one object per row, every field present.
"$bench" "${tiny[@]}" --format=json >"$tmp/json" 2>"$tmp/err" || fail "json run failed"
[ -s "$tmp/err" ] || fail "no progress on stderr"
python3 - "$tmp/json" "$tmp/list" <<'PY' || fail "JSON rows incomplete"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
names = {r["impl"] for r in rows}
listed = set()
for line in open(sys.argv[2]):
    if line.startswith("workloads:"):
        break
    if line.startswith("  "):
        listed.add(line.split()[0])
listed.discard("bloom:path=portable")  # runs only when named
assert names == listed, (names, listed)
fields = ["impl", "workload", "keys", "key_bytes", "bits_per_key_config", "bits_per_key",
          "fp_rate", "expected_fp_rate", "build_ns_per_key", "query_ns_positive",
          "query_ns_negative", "query_ns_mixed", "query_ns_batched", "hash_floor_ns",
          "memory_floor_ns", "reps"]
for r in rows:
    for f in fields:
        assert f in r, (r["impl"], f)
    assert r["keys"] == 1000 and r["workload"] == "random16" and r["reps"] == 1
    assert r["key_bytes"] == 16
    assert 0 <= r["fp_rate"] < 0.05, r
    # A build's time is its loop's CPU time less a pass that makes the keys alone, at
    # least 0: at 1,000 keys under a sanitizer the two can be equal within the clock's
    # noise, so a row's 0 is a measurement. A harness whose clock or loop is broken gives
    # every row 0 (below).
    assert r["build_ns_per_key"] >= 0 and r["query_ns_mixed"] > 0, r
    assert (r["query_ns_batched"] is None) == (r["impl"] == "lib:leveldb.bloom"), r
    assert r["impl"].startswith("lib:") or ":" not in r["impl"], r
    assert r["keys_checked"] == 1000
assert any(r["build_ns_per_key"] > 0 for r in rows), rows
PY

# Progress: one numbered line per step on stderr, the last one [N/N].
grep -qE '^filter_bench: \[1/[0-9]+, ' "$tmp/err" || fail "no numbered progress: $(cat "$tmp/err")"
last="$(grep -oE '^filter_bench: \[[0-9]+/[0-9]+' "$tmp/err" | tail -1 | sed 's/.*\[//')"
[ "${last%/*}" = "${last#*/}" ] || fail "the last step is $last"

# --help says how long each suite takes.
"$bench" --help >"$tmp/help" 2>&1
for suite in headline full quick; do
  grep -qE "^  $suite +about [0-9]+ (seconds|minutes?)" "$tmp/help" ||
    fail "--help gives no duration for $suite: $(cat "$tmp/help")"
done

# An implementation outside the default run runs when named.
"$bench" "${tiny[@]}" --filter=bloom:path=portable --format=json >"$tmp/portable" 2>/dev/null ||
  fail "bloom:path=portable run failed"
[ "$(grep -c '"impl":"bloom:path=portable"' "$tmp/portable")" -eq 1 ] ||
  fail "bloom:path=portable: not one row"

# Table: a header, one row per implementation, the ratio columns. 10^5 keys:
# a build of 10^3 takes microseconds, which the CPU-time difference that
# times it can round to nothing, leaving the baseline no build ratio.
"$bench" --keys=100000 --reps=1 --workloads=random16 \
  --filter=lib:rocksdb.fastbloom,lib:leveldb.bloom >"$tmp/table" 2>/dev/null ||
  fail "table run failed"
grep -q "medians of 1 interleaved repetitions" "$tmp/table" || fail "table: no header"
grep -q "xbuild" "$tmp/table" || fail "table: no ratio columns"
grep -qE "^  lib:rocksdb.fastbloom +[0-9.]+ .*\| +1.00 +1.00 +1.00 +1.00$" "$tmp/table" ||
  fail "table: baseline row not 1.00 against itself: $(cat "$tmp/table")"
grep -qE "^  lib:leveldb.bloom " "$tmp/table" || fail "table: no lib:leveldb.bloom row"

# A planted false negative stops the run: status 3, an error naming it.
"$bench" "${tiny[@]}" --filter=lib:rocksdb.fastbloom --inject_false_negative \
  >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] || fail "--inject_false_negative: exit status $rc, want 3"
grep -q "error: .*false negative" "$tmp/err" || fail "no false-negative message: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "--inject_false_negative: figures printed despite the failure"

# The plot: a PNG file.
"$bench" "${tiny[@]}" --quick --filter=lib:rocksdb.fastbloom,lib:rocksdb.ribbon \
  --plot="$tmp/fpp.png" >/dev/null 2>"$tmp/err" || fail "--plot failed: $(cat "$tmp/err")"
head -c 8 "$tmp/fpp.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a" ||
  fail "--plot did not write a PNG"

finish filter_bench_test
