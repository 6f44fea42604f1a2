// Fuzzes the LevelDB-compatible Bloom builder and reader with chosen options
// and keys.
#include "filter/leveldb/leveldb_bloom.h"
#include "tests/fuzz/fuzz_checks.h"

SSTFILTER_ROUNDTRIP_FUZZER(sstfilter::NewLevelDbFilterPolicy)
