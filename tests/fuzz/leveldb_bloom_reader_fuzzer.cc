// Fuzzes the LevelDB-compatible Bloom reader with arbitrary filter bytes. Its
// ExpectedFpp() measures the filter over sampled hashes, so it is asked of one
// input in four (FppInputs::kSampled); the answers of every input.
#include "filter/leveldb/leveldb_bloom.h"
#include "tests/fuzz/fuzz_checks.h"

SSTFILTER_READER_FUZZER_WITH(sstfilter::NewLevelDbFilterPolicy,
                             ::sstfilter::fuzz::FppInputs::kSampled)
