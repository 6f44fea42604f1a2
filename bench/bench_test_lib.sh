# Shared by the benchmark binaries' sh_tests (source it after `set -uo pipefail`):
# a scratch directory, a failure count, the check every tool's bad flags must pass,
# and the summary that ends a test.

tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_usage_error DESCRIPTION COMMAND...: a bad flag gives exit status 2, exactly
# one line on stderr and nothing on stdout.
expect_usage_error() {
  local what="$1"
  shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit status $rc, want 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: stderr is not one line: $(cat "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "$what: wrote to stdout"
}

# finish NAME: exits 1 after any failure, else prints that NAME passed.
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$1: $failures failure(s)" >&2
    exit 1
  fi
  echo "$1: all checks passed"
}
