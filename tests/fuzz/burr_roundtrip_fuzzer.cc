// Fuzzes the bumped Ribbon builder and reader with chosen options and keys.
#include "filter/burr/burr.h"
#include "tests/fuzz/fuzz_checks.h"

// Half the synthetic keys: the Ribbon solve's comparisons, traced by libFuzzer,
// were most of an input's time (tests/fuzz/README.md).
SSTFILTER_ROUNDTRIP_FUZZER_WITH(sstfilter::NewBurrFilterPolicy,
                                sstfilter::fuzz::SyntheticKeys::kHalf)
