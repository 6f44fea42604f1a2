#!/usr/bin/env bash
# Writes tests/fuzz/corpus_coverage.txt: for every target tagged "fuzz_target",
# libFuzzer's coverage (cov: and ft: on its INITED line) after loading the
# target's checked-in corpus under --config=fuzz. .ci/run's fuzz step fails a
# target whose corpus loads to less cov than this, so that a corpus that went
# missing or lost inputs cannot pass as fuzzing. Run it after changing a corpus,
# a fuzz target or the code they reach, and commit the file with the change.
#
# Usage: tests/fuzz/update_corpus_coverage.sh
#   BAZEL: the bazel command (default "bazel"), e.g. with a startup option:
#   BAZEL="bazel --output_base=$HOME/.cache/bazel-fuzz" tests/fuzz/update_corpus_coverage.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
# fuzz_coverage LOG KIND: libFuzzer's coverage on a fuzzer's INITED or DONE line, read
# as .ci/run's fuzz step reads it.
source tests/fuzz/fuzz_log.sh

read -r -a bazel <<<"${BAZEL:-bazel}"
out=tests/fuzz/corpus_coverage.txt
runs=3  # loads of each corpus; the lowest is recorded
targets=$("${bazel[@]}" query 'attr(tags, "\bfuzz_target\b", //...)')
# No convenience symlinks: the workspace's bazel-bin keeps pointing at the
# default build; the binaries are found through `bazel info`.
"${bazel[@]}" build --config=fuzz --symlink_prefix=/ $targets
bin_dir=$("${bazel[@]}" info --config=fuzz bazel-bin)

work=$(mktemp -d "${TMPDIR:-/tmp}/sstfilter-coverage.XXXXXX")
trap 'rm -rf "$work"' EXIT
{
  echo "# <target> <cov> <ft> [tolerance %]: libFuzzer's coverage after loading the"
  echo "# target's checked-in corpus (-runs=0, --config=fuzz; the lowest of $runs loads)."
  echo "# Written by tests/fuzz/update_corpus_coverage.sh; .ci/run fails a target"
  echo "# whose corpus loads to a cov more than its tolerance below this (2% unless"
  echo "# the line names its own, which the script keeps)."
  for t in $targets; do
    name=${t##*:}
    pkg=${t#//}
    pkg=${pkg%%:*}
    # The corpus as .ci/run copies it: the target's data files.
    mkdir -p "$work/$name"
    for f in $("${bazel[@]}" query "labels(data, $t)" 2>/dev/null |
      sed -e 's|^//||' -e 's|^:||' -e 's|:|/|'); do
      cp "$f" "$work/$name/"
    done
    # The lowest of a few loads: a target whose inputs are written at start-up
    # (the table fuzzers' RocksDB tables carry a session id and times) covers a
    # few edges more or less from run to run.
    lowest=""
    for run in $(seq "$runs"); do
      "$bin_dir/$pkg/$name" -runs=0 "$work/$name" >"$work/$name.log" 2>&1
      coverage=$(fuzz_coverage "$work/$name.log" INITED)
      if [ -z "$coverage" ]; then
        echo "$t: no INITED line; its output:" >&2
        tail -n 20 "$work/$name.log" >&2
        exit 1
      fi
      if [ -z "$lowest" ] || [ "${coverage%% *}" -lt "${lowest%% *}" ]; then
        lowest=$coverage
      fi
    done
    # A tolerance of its own (a fourth column, .ci/run) is kept.
    tolerance=$(awk -v t="$t" '$1 == t { print $4 }' "$out" 2>/dev/null || true)
    echo "$t $lowest${tolerance:+ $tolerance}"
  done
} >"$out.new"
mv "$out.new" "$out"
cat "$out"
