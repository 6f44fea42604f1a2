#!/usr/bin/env bash
# Runs the real mutable_bench binary on tiny sizes: the table's rows and ratio lines, one
# JSON object per size with every field and FP rates near the configured fpp, and exit
# status 2 with one line on stderr for each bad flag value. Timing is never checked.
set -uo pipefail

bench="$1"
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/bench/bench_test_lib.sh"

tiny=(--keys=20000,50000 --queries=8192 --reps=2)

for args in "--keys=0" "--keys=1.5" "--keys=abc" "--keys=" "--filter=mutable:fpp=1.5" \
            "--filter=mutable:fpp=0" "--filter=bloom:fpp=0.01" "--filter=counting:fpp=0.01" \
            "--filter=mutable:fpp=0.01:keys=100" "--filter=mutbl:10" "--fpp=0.01" \
            "--queries=1000" "--queries=0" "--reps=0" "--format=xml" "stray" "--bogus=1" \
            "--filter=mutable:fpp=abc" "--reps=1.5"; do
  expect_usage_error "$args" "$bench" "${tiny[@]}" $args
done

# The table: a header, a row of the native filter and one of the mutable filter per size,
# each named by its spec, and the ratio line.
"$bench" "${tiny[@]}" >"$tmp/table" 2>"$tmp/err" || fail "table run: $(cat "$tmp/err")"
for n in 20000 50000; do
  grep -qE "^ +$n +bloom:fpp=0.01 +9\.92 " "$tmp/table" || fail "no immutable row for $n: $(cat "$tmp/table")"
  grep -qE "^ +$n +mutable:fpp=0.01 +[0-9.]+ .* M " "$tmp/table" || fail "no mutable row for $n: $(cat "$tmp/table")"
done
[ "$(grep -c "mutable / immutable: add .*x build (target <= 1.5; batch add .*x), query .*x, batch .*x (target <= 1.2)" "$tmp/table")" -eq 2 ] ||
  fail "want two ratio lines: $(cat "$tmp/table")"
grep -q "Every added key was checked" "$tmp/table" || fail "no check line"

# JSON: one object per size, every field, and rates a filter at 1% can have.
"$bench" "${tiny[@]}" --format=json >"$tmp/json" 2>"$tmp/err" || fail "json run: $(cat "$tmp/err")"
python3 - "$tmp/json" <<'PY' || fail "JSON rows: $(cat "$tmp/json")"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
assert [r["keys"] for r in rows] == [20000, 50000], rows
for r in rows:
    assert r["keys_checked"] == r["keys"] and r["reps"] == 2 and r["queries"] == 8192, r
    assert r["filter"] == "mutable:fpp=0.01" and r["fpp"] == 0.01, r
    assert r["native_filter"] == "bloom:fpp=0.01", r
    assert r["machine"] and r["cpu"], r
    # A timing is CPU time less the separately timed key making, floored at 0: at these
    # sizes it may be 0, and a rate or ratio over it null. Only its presence and sign
    # are checked; the sizes and rates are exact.
    def timing(v):
        return v is None or (isinstance(v, (int, float)) and v >= 0)
    for side, fields in (("immutable", ["build_ns_per_key", "query_ns", "batch_ns"]),
                         ("mutable", ["add_ns_per_key", "adds_per_second_1_thread",
                                      "batch_add_ns_per_key", "adds_per_second_2_threads",
                                      "adds_per_second_2_threads_wall", "query_ns",
                                      "batch_ns"])):
        for f in fields:
            assert timing(r[side][f]), (side, f, r[side][f])
        assert 5 < r[side]["bits_per_key"] < 20, (side, r[side]["bits_per_key"])
        # 32,768 absent keys at 1%: about 330 false positives; far outside [0.5%, 2%]
        # means the filter or the count is wrong.
        assert 0.005 < r[side]["fp_rate"] < 0.02, (side, r[side]["fp_rate"])
    for f in ["add_vs_build", "batch_add_vs_build", "query", "batch"]:
        assert timing(r["ratios"][f]), r["ratios"]
    assert r["ratios"]["query_target"] == 1.2 and r["ratios"]["add_vs_build_target"] == 1.5
PY

finish mutable_bench_test
