// Fuzzes the native cache-local Bloom reader with arbitrary filter bytes.
#include "filter/bloom/bloom.h"
#include "tests/fuzz/fuzz_checks.h"

SSTFILTER_READER_FUZZER(sstfilter::NewBloomFilterPolicy)
