#!/bin/sh
# Runs one ctest test as `bazel test` runs it: in a fresh, private TEST_TMPDIR that is
# removed afterwards, from the runfiles tree (ctest sets the working directory,
# TEST_SRCDIR and TEST_WORKSPACE).
TEST_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/sstfilter-test.XXXXXX") || exit 1
export TEST_TMPDIR
"$@"
status=$?
rm -rf "$TEST_TMPDIR"
exit $status
