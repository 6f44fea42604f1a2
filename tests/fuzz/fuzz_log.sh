# Reads libFuzzer's output for the scripts that run the fuzz targets: .ci/run's fuzz
# step and tests/fuzz/update_corpus_coverage.sh source this file, so that both read the
# coverage figures the same way (the one compares what the other records).

# libFuzzer's coverage on the last status line of the given kind (INITED, DONE) in
# a fuzzer's log, as "<cov> <ft>"; nothing when there is no such line.
#   fuzz_coverage LOG KIND
fuzz_coverage() {
  sed -n "s/^#[0-9]*[[:space:]]*$2 .*cov: \([0-9]*\) ft: \([0-9]*\).*/\1 \2/p" "$1" |
    tail -n 1
}
