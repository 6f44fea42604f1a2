// Fuzzes the native cache-local Bloom builder and reader with chosen options
// and keys.
#include "filter/bloom/bloom.h"
#include "tests/fuzz/fuzz_checks.h"

SSTFILTER_ROUNDTRIP_FUZZER(sstfilter::NewBloomFilterPolicy)
