// Fuzzes the LevelDB-compatible Bloom reader with arbitrary filter bytes.
#include "filter/leveldb/leveldb_bloom.h"
#include "tests/fuzz/fuzz_checks.h"

SSTFILTER_READER_FUZZER(sstfilter::NewLevelDbFilterPolicy)
