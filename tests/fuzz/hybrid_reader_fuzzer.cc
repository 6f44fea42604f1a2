// Fuzzes the hybrid format's reader (sstfilter.Hybrid1) with arbitrary filter
// bytes: the marker dispatch and both families' readers behind it. Seeds:
// the compact policy's own, and native filters from bloom_reader_fuzzer's
// corpus (tests/fuzz/README.md).
#include "filter/hybrid/hybrid.h"
#include "tests/fuzz/fuzz_checks.h"

SSTFILTER_READER_FUZZER(sstfilter::NewHybridCompactFilterPolicy)
