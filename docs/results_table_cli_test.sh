#!/usr/bin/env bash
# results_table's command line: a usage error is exit status 2 and one line, and with
# no page named it walks for pages only from a workspace root, so run from any other
# directory it touches no markdown there.
set -uo pipefail
case "$1" in
  /*) table="$1" ;;
  *) table="$PWD/$1" ;;
esac
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# A flag it does not know, or one without its value: one line naming it, status 2.
for bad in --nope --render; do
  "$table" "$bad" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" -eq 2 ] || fail "$bad: exit status $rc, want 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$bad: stderr $(cat "$tmp/err")"
  grep -q -- "${bad#--}" "$tmp/err" || fail "$bad: stderr does not name it: $(cat "$tmp/err")"
done

"$table" --render=filter_bench >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "--render without a file: exit status $rc, want 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "--render without a file: stderr $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "--render without a file: wrote to stdout"

# A directory that is not a workspace root, holding a page whose block is stale: the
# walk must refuse, leaving the page as it was.
stranger="$tmp/not_a_workspace"
mkdir -p "$stranger"
page=$'<!-- results:begin filter_bench run -->\nstale\n<!-- results:end -->\n'
printf '%s' "$page" >"$stranger/page.md"
(cd "$stranger" && env -u BUILD_WORKSPACE_DIRECTORY -u BUILD_WORKING_DIRECTORY \
  "$table" >"$tmp/out" 2>"$tmp/err")
rc=$?
[ "$rc" -eq 2 ] || fail "walk outside a workspace: exit status $rc, want 2"
grep -q "WORKSPACE" "$tmp/err" || fail "walk outside a workspace: stderr $(cat "$tmp/err")"
[ "$(cat "$stranger/page.md")" = "$(printf '%s' "$page")" ] ||
  fail "walk outside a workspace changed page.md"

if [ "$failures" -ne 0 ]; then
  echo "results_table_cli_test: $failures failure(s)" >&2
  exit 1
fi
echo "results_table_cli_test: all checks passed"
