#!/usr/bin/env bash
# Every tool's --filter is the one SpecList flag: each binary given as an
# argument refuses a malformed list, or a spec of no known family, with exit
# status 2 and one line naming the fault.
set -uo pipefail

source "${TEST_SRCDIR}/${TEST_WORKSPACE}/bench/bench_test_lib.sh"

[ "$#" -gt 0 ] || fail "no tools given"
for tool in "$@"; do
  name="$(basename "$tool")"
  for case in "bloom,,burr|empty entry" "bloom,bloom|\"bloom\" listed twice" \
              "bloom:10:|trailing colon" "lib:|is not lib:NAME" \
              "blom|family \"blom\""; do
    list="${case%%|*}"
    says="${case#*|}"
    expect_usage_error "$name --filter=$list" "$tool" "--filter=$list"
    grep -qF -- "$says" "$tmp/err" ||
      fail "$name --filter=$list: does not say '$says': $(cat "$tmp/err")"
  done
done
finish filter_flag_test
