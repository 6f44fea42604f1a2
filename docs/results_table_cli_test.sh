#!/usr/bin/env bash
# results_table's command line: a bad flag is a usage error (exit status 2, one line),
# and with no page named it walks for pages only from a workspace root, so run from
# any other directory it touches no markdown there.
set -uo pipefail
source "${TEST_SRCDIR}/${TEST_WORKSPACE}/bench/bench_test_lib.sh"
case "$1" in
  /*) table="$1" ;;
  *) table="$PWD/$1" ;;
esac

expect_usage_error "unknown flag" "$table" --nope
expect_usage_error "bool flag given a word" "$table" --check=maybe
expect_usage_error "--render without a file" "$table" --render=filter_bench

# A directory that is not a workspace root, holding a page whose block is stale: the
# walk must refuse, leaving the page as it was.
stranger="$tmp/not_a_workspace"
mkdir -p "$stranger/docs/results"
page=$'<!-- results:begin filter_bench run -->\nstale\n<!-- results:end -->\n'
printf '%s' "$page" >"$stranger/page.md"
(cd "$stranger" && env -u BUILD_WORKSPACE_DIRECTORY -u BUILD_WORKING_DIRECTORY \
  "$table" >"$tmp/out" 2>"$tmp/err")
rc=$?
[ "$rc" -eq 2 ] || fail "walk outside a workspace: exit status $rc, want 2"
grep -q "WORKSPACE" "$tmp/err" || fail "walk outside a workspace: stderr $(cat "$tmp/err")"
[ "$(cat "$stranger/page.md")" = "$(printf '%s' "$page")" ] ||
  fail "walk outside a workspace changed page.md"

finish results_table_cli_test
