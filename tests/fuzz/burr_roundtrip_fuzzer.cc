// Fuzzes the bumped Ribbon builder and reader with chosen options and keys.
#include "filter/burr/burr.h"
#include "tests/fuzz/fuzz_checks.h"

SSTFILTER_ROUNDTRIP_FUZZER(sstfilter::NewBurrFilterPolicy)
