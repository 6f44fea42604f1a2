#!/usr/bin/env bash
# Runs the real db_bench binary on tiny databases: one JSON row per configuration and
# tree of the point section with every present key found and no absent key found, the
# RocksDB rows at lib:rocksdb.fastbloom's filter memory with their bits/key by level, and
# absent-key lookups with direct reads whose counts match the buffered ones; the
# partitioned-filter, prefix-seek and range-scan sections' rows with figures that make
# sense (filter bytes inserted into a cache smaller than the filters, prefix filters reading
# fewer data blocks than no filter, range filters a tenth or less of no filter's); the text
# tables with their comparisons; --filter=list and the refused --configs; the suites in
# --help; the sections' checks of present keys stopping a run whose filters
# answer no; the presence section (PresenceFilteredDB against RocksDB alone) and the
# markdown the docs' renderer (//docs:results_table, the second argument) prints from its
# JSON; and exit status 2 with one line for each bad flag value and replaced flag.
set -uo pipefail

bench="$1"
results_table="$2"
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/bench/bench_test_lib.sh"

tiny=(--keys=20000 --lookups=500 --reps=2 --section_keys=20000 --section_lookups=500
      --dir="$tmp")

for args in "--keys=0" "--lookups=0" "--reps=0" "--format=xml" "--stores=mysql" \
            "--configs=rocksdb.bloom" "--presence_markdown_from=x.json" \
            "--filter=lib:nosuch" "--filter=tree.per_level" "--bogus=1" \
            "--keys=abc" "--suite=nosuch" \
            "--sections=nosuch" "--section_keys=0" "--section_lookups=0" \
            "--direct_reads=maybe"; do
  expect_usage_error "$args" "$bench" "${tiny[@]}" $args
done

# --filter: a malformed spec is a usage error whose one line names the fault.
expect_usage_error "--filter=blom:10" "$bench" "${tiny[@]}" --filter=blom:10
grep -qx 'db_bench: --filter: unknown filter family "blom" (known: bloom, burr, .*)' \
  "$tmp/err" || fail "--filter=blom:10: $(cat "$tmp/err")"
for args in "--filter=bloom:10:" "--filter=bloom:10,bloom:10" "--filter=bloom,bloom"; do
  expect_usage_error "$args" "$bench" "${tiny[@]}" $args
done
expect_usage_error "--configs=bloom" "$bench" "${tiny[@]}" --configs=bloom
grep -q "^db_bench: --configs=bloom: --configs is replaced by --filter" "$tmp/err" ||
  fail "--configs: $(cat "$tmp/err")"

# A spec that names no built-in configuration adds a point-section configuration per
# store, named by the spec, that finds every present key and no absent one; an unsized
# one is sized at the run's 10 bits/key.
"$bench" "${tiny[@]}" --sections=point --filter=lib:rocksdb.fastbloom,bloom:10,leveldb \
  --format=json >"$tmp/spec" 2>"$tmp/err" || fail "--filter run: $(cat "$tmp/err")"
for config in '"store":"rocksdb","config":"bloom:10"' '"store":"leveldb","config":"bloom:10"' \
              '"store":"rocksdb","config":"leveldb"' '"store":"leveldb","config":"leveldb"' \
              '"store":"rocksdb","config":"lib:rocksdb.fastbloom"'; do
  grep -q "$config" "$tmp/spec" || fail "--filter: no row with $config: $(cat "$tmp/spec")"
done
grep -q '"config":"leveldb","tree":"settled","filter":"[^"]*leveldb:bits_per_key=10' "$tmp/spec" ||
  fail "--filter=leveldb: not sized at 10 bits/key: $(cat "$tmp/spec")"
[ "$(grep -c '"config":"lib:leveldb.bloom"\|"config":"bloom"' "$tmp/spec")" -eq 0 ] ||
  fail "--filter ran configurations it did not name: $(cat "$tmp/spec")"
while read -r row; do
  [[ "$row" == *'"absent":{'*'"found":0,'* ]] || fail "--filter: an absent key was found: $row"
  [[ "$row" == *'"present":{'*'"found":1000,"lookups":1000'* ]] ||
    fail "--filter: a present key was not found: $row"
done < <(grep '"config":"bloom:10"\|"config":"leveldb"' "$tmp/spec")

# A tree policy's spec (levels=tree) is sized from the uniform filter's tree at its own
# budget; one it cannot honour is refused before anything is built.
"$bench" "${tiny[@]}" --stores=rocksdb --sections=point --filter=hybrid:6:levels=tree \
  --format=json >"$tmp/spec" 2>"$tmp/err" || fail "--filter tree run: $(cat "$tmp/err")"
python3 - "$tmp/spec" <<'PY' || fail "--filter=hybrid:6:levels=tree: $(cat "$tmp/spec")"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
tree = [r for r in rows if r["config"] == "hybrid:6:levels=tree"]
assert len(tree) == 2, rows  # settled, and with two flushes in L0
for r in tree:
    assert "NewRocksDbTreeFilterPolicy(\"hybrid:bits_per_key=6:levels=tree\")" in r["filter"], r
    assert r["bits_per_key"] < 7, r
    assert r["absent"]["found"] == 0 and r["present"]["found"] == r["present"]["lookups"], r
PY
expect_usage_error "--filter=bloom:levels=tree:path=portable" "$bench" "${tiny[@]}" \
  --filter=bloom:levels=tree:path=portable
grep -qx 'db_bench: --filter: tree policy "bloom:bits_per_key=10:levels=tree:path=portable": path is not a param of bloom.s tree policy' \
  "$tmp/err" || fail "--filter=bloom:levels=tree:path=portable: $(cat "$tmp/err")"

# Such a spec is timed with partitioned filters too, beside the built-in it is compared with.
"$bench" "${tiny[@]}" --stores=rocksdb --sections=partitioned \
  --filter=lib:rocksdb.fastbloom,bloom:checksum=off --format=json >"$tmp/spec" 2>"$tmp/err" ||
  fail "--filter partitioned run: $(cat "$tmp/err")"
for config in lib:rocksdb.fastbloom bloom:checksum=off; do
  grep -q "\"section\":\"partitioned\",\"store\":\"rocksdb\",\"config\":\"$config\"" "$tmp/spec" ||
    fail "--filter: no partitioned row of $config: $(cat "$tmp/spec")"
done

# --help says how long each suite takes.
"$bench" --help >"$tmp/help" 2>&1
for suite in headline full deep; do
  grep -qE "^  $suite +about [0-9.]+ (seconds|minutes?)" "$tmp/help" ||
    fail "--help gives no duration for $suite: $(cat "$tmp/help")"
done

"$bench" --filter=list >"$tmp/out" 2>"$tmp/err" || fail "--filter=list failed"
printf '%s\n' lib:rocksdb.fastbloom bloom lib:rocksdb.ribbon lib:rocksdb.ribbon_hybrid \
  bloom:levels=tree hybrid:levels=tree lib:leveldb.bloom burr none grafite:16 \
  grafite:16:codes=table >"$tmp/want"
diff "$tmp/want" "$tmp/out" >/dev/null || fail "--filter=list: $(cat "$tmp/out")"
rm "$tmp/want"

# Every configuration of every section, JSON: 2 reps x 500 lookups of each kind; the
# point section's RocksDB databases settled and again with two flushes in L0, each time
# also with direct reads.
"$bench" "${tiny[@]}" --direct_reads=true --format=json >"$tmp/json" 2>"$tmp/err" ||
  fail "json run: $(cat "$tmp/err")"
grep '"section":"point"' "$tmp/json" >"$tmp/point"
[ "$(wc -l <"$tmp/point")" -eq 14 ] || fail "want 14 point rows, got: $(cat "$tmp/json")"
[ "$(grep -c '"tree":"settled"' "$tmp/point")" -eq 8 ] || fail "want 8 settled rows: $(cat "$tmp/json")"
[ "$(grep -c '"store":"rocksdb","config":"[a-z:._=]*","tree":"2 flushes in L0".*"files_per_level":\[2,' \
     "$tmp/point")" -eq 6 ] || fail "want 6 RocksDB rows with 2 tables in L0: $(cat "$tmp/json")"
while read -r row; do
  for field in '"store":' '"tree":' '"bits_per_key":' '"files_per_level":' '"lookups_per_second":' \
               '"data_reads_per_lookup":' '"filter_bytes":'; do
    [[ "$row" == *"$field"* ]] || fail "row lacks $field: $row"
  done
  [[ "$row" == *'"absent":{'*'"found":0,'* ]] || fail "an absent key was found: $row"
  [[ "$row" == *'"present":{'*'"found":1000,"lookups":1000'* ]] ||
    fail "a present key was not found: $row"
done <"$tmp/point"

# Every row's figures make sense, and the sections have every configuration once. Timings
# are only required to be positive; the counts follow from the configurations.
python3 - "$tmp/json" <<'PY' || fail "rows: $(cat "$tmp/json")"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
# 14 point rows, 4 partitioned, 5 prefix, and 5 range databases (4 configurations,
# one of them also behind PresenceFilteredDB) on 4 key shapes.
assert len(rows) == 43, len(rows)

# The point section's RocksDB rows: the same filter memory as lib:rocksdb.fastbloom (within the
# rounding of one table's filter), bits/key by level, and direct reads.
point = {(r["config"], r["tree"]): r
         for r in rows if r["section"] == "point" and r["store"] == "rocksdb"}
leveldb = [r for r in rows if r["section"] == "point" and r["store"] == "leveldb"]
assert sorted(r["config"] for r in leveldb) == ["bloom", "lib:leveldb.bloom"], leveldb
for r in leveldb:
    assert r["direct_reads"] is None and r["filter_bytes_vs_rocksdb_bloom"] > 0.9, r
settled, flushed = "settled", "2 flushes in L0"
for (name, tree), r in point.items():
    vs = r["filter_bytes_vs_rocksdb_bloom"]
    if name == "lib:rocksdb.fastbloom":
        assert vs == 1, r
    if name in ("lib:rocksdb.ribbon", "bloom") or (
            name == "lib:rocksdb.ribbon_hybrid" and tree == settled):
        assert 0.97 < vs < 1.02, (name, tree, vs)
    levels = r["bits_per_key_per_level"]
    assert len(levels) == len(r["files_per_level"]) == len(r["entries_per_level"]), r
    assert sum(r["entries_per_level"]) == r["keys"], r
    # (The per-level and hybrid policies may give a level any size, none included.)
    for bits, entries in zip(levels, r["entries_per_level"]):
        assert entries > 0 or bits == 0, r
        assert entries == 0 or name in ("bloom:levels=tree", "hybrid:levels=tree") or \
            5 < bits < 25, (name, tree, levels)
    d = r["direct_reads"]
    assert d is not None, r
    # Direct reads, or the file system's refusal said.
    assert d["direct"] or d["refused"], d
    assert 0 < d["block_cache_bytes"] < d["data_bytes"], d
    a = d["absent"]
    assert a["found"] == 0 and a["lookups"] == 1000 and a["lookups_per_second"] > 0, a
    # Each repetition's rate, whose pairs the ratio lines take the median of.
    assert len(a["lookups_per_second_by_repetition"]) == 2, a
    assert a["lookups_per_second"] in a["lookups_per_second_by_repetition"], a
    # The cache holds every filter and index block: none is read during the lookups.
    assert a["metadata_misses_per_lookup"] == 0, a
    # The same lookups and filters as the buffered figures: the same data blocks.
    assert a["data_reads_per_lookup"] == r["absent"]["data_reads_per_lookup"], (a, r["absent"])
# RocksDB's own hybrid writes Bloom filters in flushes, at its Bloom-equivalent setting:
# more bits per key in L0 than below, where its Ribbon filters match lib:rocksdb.fastbloom's.
hybrid = point[("lib:rocksdb.ribbon_hybrid", flushed)]
assert hybrid["bits_per_key_per_level"][0] > hybrid["bits_per_key_per_level"][-1] + 2, hybrid
assert hybrid["filter_bytes_vs_rocksdb_bloom"] > point[("lib:rocksdb.ribbon", flushed)][
    "filter_bytes_vs_rocksdb_bloom"], hybrid
# At the same memory Ribbon's lower false-positive rate reads fewer data blocks.
for tree in (settled, flushed):
    assert (point[("lib:rocksdb.ribbon", tree)]["absent"]["data_reads_per_lookup"] <
            point[("lib:rocksdb.fastbloom", tree)]["absent"]["data_reads_per_lookup"]), tree
# Every row names the machine and the RocksDB release of its run.
for r in rows:
    assert r["machine"] and r["cpu"] and r["rocksdb_version"].count(".") == 2, r
# Every section's database is one sorted run in the last of 7 levels.
for r in rows:
    if r["section"] != "point":
        levels = r["files_per_level"]
        assert len(levels) == 7 and levels[:6] == [0] * 6 and levels[6] > 0, r

part = {r["config"]: r for r in rows if r["section"] == "partitioned"}
assert sorted(part) == sorted([
    "lib:rocksdb.fastbloom", "lib:rocksdb.ribbon", "bloom", "burr"]), sorted(part)
for name, r in part.items():
    a = r["absent"]
    assert r["keys"] == 20000 and r["metadata_block_size"] == 4096, (name, r)
    # The section's premise: every filter is several times the block cache (about 4x).
    assert r["filter_bytes"] >= 3 * r["block_cache_bytes"] > 0, (name, r)
    assert 8 < r["bits_per_key"] < 12, (name, r["bits_per_key"])
    assert abs(r["filter_bytes_per_key"] * 8 - r["bits_per_key"]) < 1e-9, (name, r)
    assert a["found"] == 0 and a["lookups"] == 1000, (name, a)
    assert a["lookups_per_second"] > 0, (name, a)
    assert len(a["lookups_per_second_by_repetition"]) == 2, (name, a)
    # Each lookup asks the filter of about one table (one level here) and most answer no;
    # a partition out of cache is read and inserted; false positives are rare.
    assert 0.5 < a["filter_checks_per_lookup"] <= 2, (name, a)
    assert 0.5 < a["filter_useful_per_lookup"] <= a["filter_checks_per_lookup"], (name, a)
    assert 0 < a["filter_misses_per_lookup"] <= a["filter_checks_per_lookup"], (name, a)
    assert a["filter_bytes_inserted_per_lookup"] > 0, (name, a)
    assert 0 <= a["data_reads_per_lookup"] < 0.1, (name, a)

prefix = {(r["config"], r["filter_holds"]): r for r in rows if r["section"] == "prefix"}
assert sorted(prefix) == sorted([
    ("none", "none"), ("lib:rocksdb.fastbloom", "prefixes"), ("bloom", "prefixes"),
    ("lib:rocksdb.fastbloom", "keys+prefixes"), ("bloom", "keys+prefixes")]), sorted(prefix)
none = prefix[("none", "none")]
assert none["filter_bytes"] == 0, none
# Without a filter every seek reads the data block where its prefix would be.
assert none["absent"]["data_reads_per_seek"] > 0.5, none
assert none["absent"]["prefix_checked_per_seek"] == 0, none
for name, r in prefix.items():
    a = r["absent"]
    assert r["prefix_bytes"] == 8 and r["keys_per_prefix"] == 16, (name, r)
    assert a["found"] == 0 and a["seeks"] == 1000 and a["seeks_per_second"] > 0, (name, a)
    if name == ("none", "none"):
        continue
    assert r["filter_bytes"] > 0, (name, r)
    assert 0.5 < a["prefix_checked_per_seek"] <= 2, (name, a)
    assert 0 < a["prefix_useful_per_seek"] <= a["prefix_checked_per_seek"], (name, a)
    assert a["data_reads_per_seek"] < none["absent"]["data_reads_per_seek"] / 4, (name, a, none)
# A filter of prefixes only holds one entry per 16 keys; with whole keys, 17.
for policy in ["lib:rocksdb.fastbloom", "bloom"]:
    only, both = prefix[(policy, "prefixes")], prefix[(policy, "keys+prefixes")]
    assert 10 * only["filter_bytes"] < both["filter_bytes"], (only, both)

rng = {(r["key_shape"], r["config"], r["front"]): r
       for r in rows if r["section"] == "range"}
shapes = sorted({shape for shape, _, _ in rng})
assert len(shapes) == 4, shapes
front = "PresenceFilteredDB"
for shape in shapes:
    configs = sorted((c, f) for s, c, f in rng if s == shape)
    assert configs == [("grafite:16", ""), ("grafite:16:codes=table", ""),
                       ("lib:rocksdb.fastbloom", ""), ("lib:rocksdb.fastbloom", front),
                       ("none", "")], (shape, configs)
    none, keyed = rng[(shape, "none", "")], rng[(shape, "grafite:16:codes=table", "")]
    fronted = rng[(shape, "lib:rocksdb.fastbloom", front)]
    # The whole database's filter: its keys and range items, well over a table's.
    assert 40 < fronted["range_bits_per_key"] < 120, fronted
    assert none["range_bits_per_key"] == 0, none
    # The keyed filter's coders cost a little over its budget.
    assert 15.5 < keyed["range_bits_per_key"] < 18.5, keyed
    for config, config_front in configs:
        r = rng[(shape, config, config_front)]
        assert r["scan_width"] == 64 and r["rocksdb_version"], r
        for kind in ("correlated", "uniform"):
            e = r[kind]
            assert e["found"] == 0 and e["scans"] == 1000 and e["scans_per_second"] > 0, r
        # A scan from a present key finds it in the one data block that holds it.
        n = r["nonempty"]
        assert n["found"] == n["scans"] == 1000 and n["scans_per_second"] > 0, r
        assert 0.9 <= n["data_reads_per_scan"] <= 2.5, r
    # Without a filter every empty scan reads the data block where its range would
    # be; with the keyed range filter, the table is skipped but for the filter's rare
    # false positives, on every shape, right after a key as anywhere.
    # Behind PresenceFilteredDB, an empty scan reaches a table as rarely.
    for kind in ("correlated", "uniform"):
        assert none[kind]["data_reads_per_scan"] >= 0.9, none
        assert keyed[kind]["data_reads_per_scan"] <= none[kind]["data_reads_per_scan"] / 10, keyed
        assert fronted[kind]["data_reads_per_scan"] <= none[kind]["data_reads_per_scan"] / 10, fronted
PY

# The text table with the comparisons the README quotes; the databases are removed.
# --keys replaces the full suite's count.
"$bench" "${tiny[@]}" --suite=full --stores=rocksdb --filter=lib:rocksdb.fastbloom,bloom \
  >"$tmp/text" 2>"$tmp/err" || fail "table run: $(cat "$tmp/err")"
for tree in "settled" "2 flushes in L0"; do
  grep -qE "absent lookups/s, rocksdb, $tree: bloom / lib:rocksdb.fastbloom = [0-9.]+ \(median of [0-9]+ per-repetition ratios" "$tmp/text" ||
    fail "no ratio line for the $tree tree: $(cat "$tmp/text")"
done
grep -q "^20000 keys of 16 bytes" "$tmp/text" || fail "--keys did not replace the suite's: $(cat "$tmp/text")"
# The full suite times direct reads too, and prints them.
grep -q "^Absent-key lookups with direct reads" "$tmp/text" ||
  fail "the full suite printed no direct reads: $(cat "$tmp/text")"
grep -qE "^bloom +settled +(direct|buffered) " "$tmp/text" ||
  fail "no direct-read row: $(cat "$tmp/text")"
grep -qE "^rocksdb  bloom +settled +[0-9.]+ +[0-9.]+ +1\.0[0-9]*|^rocksdb  bloom +settled +[0-9.]+ +[0-9.]+ +0\.9[0-9]*" "$tmp/text" ||
  fail "no filter bytes against lib:rocksdb.fastbloom's: $(cat "$tmp/text")"
grep -qE "^bloom +settled +[0-9]+ filter bytes; bits/key by level: L6 " "$tmp/text" ||
  fail "no bits/key by level: $(cat "$tmp/text")"
# A name chooses its configuration in every section, and only the names given run.
grep -q "^Partitioned filters" "$tmp/text" ||
  fail "--filter=bloom ran no partitioned section: $(cat "$tmp/text")"
grep -qE "^(burr|lib:rocksdb.ribbon|grafite:16) " "$tmp/text" &&
  fail "sections ran configurations --filter did not name: $(cat "$tmp/text")"

# The sections' tables alone, with their comparisons.
"$bench" "${tiny[@]}" --sections=partitioned,prefix,range \
  --filter=lib:rocksdb.fastbloom,bloom,none,grafite:16 \
  >"$tmp/sections" 2>"$tmp/err" || fail "sections run: $(cat "$tmp/err")"
for line in "^Partitioned filters out of cache: 20000 keys of 16 bytes.*LRU block cache of 6250 bytes" \
            "^bloom +[0-9]" "^Prefix seeks to absent prefixes: 20000 keys" \
            "^none +none " \
            "absent lookups/s, partitioned: bloom / lib:rocksdb.fastbloom = [0-9.]+ \(median of [0-9]+ per-repetition ratios; ratio of the medians [0-9.]+\)$" \
            "data reads per absent seek, prefix: bloom / none = " \
            "^Short scans of empty ranges: 20000 keys" "^grafite:16 +1[5-7]\.[0-9]+ " \
            "data reads per empty scan, correlated, range, random 16 bytes: grafite:16 / none = " \
            "non-empty scans/s, range, user \+ 19 digits: grafite:16 / lib:rocksdb.fastbloom = "; do
  grep -qE "$line" "$tmp/sections" || fail "no line '$line': $(cat "$tmp/sections")"
done
grep -q "keys of 16 bytes, 32-byte values; 500 lookups of each kind" "$tmp/sections" &&
  fail "--sections=partitioned,prefix,range printed the point table: $(cat "$tmp/sections")"

# Filters that answer no for every key: each section's check of present keys stops the
# run before any figure is printed.
for run in partitioned:bloom prefix:bloom range:grafite:16; do
  section="${run%%:*}"
  config="${run#*:}"
  "$bench" "${tiny[@]}" --sections=$section --filter=$config \
    --inject_false_negative >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 1 ] || fail "$section with --inject_false_negative: exit status $rc, want 1"
  [ ! -s "$tmp/out" ] || fail "$section with --inject_false_negative printed: $(cat "$tmp/out")"
  grep -qE "^db_bench: $config: (present key .* not found|a seek to the prefix of group .* found 0 keys|a scan from present key .* missed it)" \
    "$tmp/err" || fail "$section: no check failure: $(cat "$tmp/err")"
done

# The presence section, named alone: both table filters under PresenceFilteredDB, every
# query by RocksDB alone and through the wrapper, with the data in the page cache and with
# direct reads; the mixed sweep of present and absent keys; the fill, open and rebuild
# turns; targets checked; and the markdown of docs/presence_filtered_db.md printed from
# its JSON.
"$bench" --sections=presence --keys=20000 --lookups=500 --reps=2 --dir="$tmp" --format=json \
  >"$tmp/presence" 2>"$tmp/err" || fail "presence run: $(cat "$tmp/err")"
python3 - "$tmp/presence" <<'PY' || fail "presence rows: $(cat "$tmp/presence")"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
assert [r["config"] for r in rows] == ["lib:rocksdb.fastbloom", "hybrid:levels=tree"], rows
queries = ["get_absent", "get_present", "multiget_absent", "multiget_present"]
for r in rows:
    assert r["section"] == "presence" and r["keys"] == r["expected_keys"] == 20000, r
    assert r["reps"] == 2 and r["multiget_batch"] > 1 and r["machine"] and r["cpu"], r
    assert len(r["load_averages"]["first_round"].split()) == 3, r["load_averages"]
    d = r["direct"]
    assert d is not None and (d["direct"] or d["refused"]), d
    assert d["block_cache_bytes"] > 0, d
    for mode in (r["buffered"], d):
        for q in queries:
            f = mode[q]
            keys = f["keys_per_round"]
            assert keys == 500, (q, f)
            for who in ("plain", "wrapped"):
                assert len(f[who]["rounds"]) == 2 and f[who]["per_second"] > 0, (q, who, f)
                # Absent keys are never written; present keys always are, and neither
                # handle may say otherwise.
                assert f[who]["found"] == (0 if q.endswith("absent") else 2 * keys), (q, who, f)
            assert f["ratio"] > 0, (q, f)
    mixes = r["mixed_get"]
    assert [x["present_percent"] for x in mixes] == [0, 50, 90, 100], mixes
    for x in mixes:
        keys = x["keys_per_round"]
        assert keys == 250, x
        # Both handles find exactly the present keys: none at 0%, all at 100%.
        found = x["plain"]["found"]
        assert x["wrapped"]["found"] == found, x
        share = found / (2 * keys)
        assert abs(share - x["present_percent"] / 100) < 0.1, x
        assert len(x["plain"]["rounds"]) == len(x["wrapped"]["rounds"]) == 2, x
        assert x["plain"]["per_second"] > 0 and x["ratio"] > 0, x
    fill = r["fill"]
    assert fill["keys_per_turn"] == 20000 and fill["ratio"] > 0, fill
    # Each of the 2 rounds fills each way turns_per_round times.
    turns = 2 * fill["turns_per_round"]
    assert fill["turns_per_round"] >= 1, fill
    assert all(len(fill[w]["rounds"]) == turns for w in ("plain", "wrapped")), fill
    assert all(len(fill["stall_seconds"][w]["rounds"]) == turns for w in ("plain", "wrapped")), fill
    assert len(fill["wrapped_saving_at_close"]["rounds"]) == turns, fill
    assert fill["wrapped_saving_at_close"]["ratio"] > 0, fill
    assert len(fill["wrapper_saves"]["rounds"]) == len(fill["wrapper_saves"]["saves"]["rounds"]) == turns, fill
    o = r["open"]
    assert len(o["plain"]["rounds"]) == len(o["wrapped"]["rounds"]) == 2, o
    # Each round reopens the wrapper from its saved filter twice (page cache, direct
    # reads), and each reopen restores it without a rebuild.
    assert o["restored_opens"] == 4 and o["unrestored_opens"] == [], o
    assert len(r["rebuild"]["rounds"]) == 2 and r["rebuild"]["seconds"] > 0, r["rebuild"]
    m = r["memory"]
    assert m["bytes"] > 0 and m["sized_for_keys"] >= 20000, m
    assert 0.5 < m["bytes_per_key"] < 4 and 15000 < m["approximate_keys"] < 25000, m
    targets = r["targets"]
    assert len(targets) == 8 and all(isinstance(t["met"], bool) for t in targets), targets
    assert [t["target"].startswith("mixed Get/s at") for t in targets].count(True) == 4, targets
    assert targets[-1]["stated_at_keys"] == 10000000, targets
PY
"$results_table" --render=presence "$tmp/presence" >"$tmp/presence.md" 2>"$tmp/err" ||
  fail "results_table --render=presence: $(cat "$tmp/err")"
for line in '^\*\*20000 keys\*\* of 16 bytes' '^\| hybrid:levels=tree \| direct' \
            '^\| lib:rocksdb.fastbloom \| page cache \| Get, absent keys \| 500 \|' \
            '^\| lib:rocksdb.fastbloom \| absent Get/s .* >= 10× \| [0-9.]+× \| (met|missed) \|' \
            '^\| hybrid:levels=tree \| 90% \| [0-9]+ \| [0-9]+ \| [0-9.]+× \|$' \
            '^\| hybrid:levels=tree \| mixed Get/s at 50% present, wrapper / RocksDB >= 0.98× \|'; do
  grep -qE "$line" "$tmp/presence.md" || fail "no markdown line '$line': $(cat "$tmp/presence.md")"
done
echo '{"section":"presence","keys":1}' >"$tmp/presence.bad"
"$results_table" --render=presence "$tmp/presence.bad" >/dev/null 2>"$tmp/err" &&
  fail "results_table --render=presence took a row without its figures"
grep -q "lacks" "$tmp/err" || fail "a row without its figures: $(cat "$tmp/err")"

[ -z "$(ls -A "$tmp" | grep -v -e '^out$' -e '^err$' -e '^json$' -e '^text$' -e '^help$' \
        -e '^point$' -e '^sections$' -e '^spec$' -e '^presence$' -e '^presence.md$' \
        -e '^presence.bad$')" ] ||
  fail "databases left behind: $(ls "$tmp")"

finish db_bench_test
