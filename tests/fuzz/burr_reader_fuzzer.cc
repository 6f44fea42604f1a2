// Fuzzes the bumped Ribbon reader with arbitrary filter bytes.
#include "filter/burr/burr.h"
#include "tests/fuzz/fuzz_checks.h"

SSTFILTER_READER_FUZZER(sstfilter::NewBumpedRibbonFilterPolicy)
