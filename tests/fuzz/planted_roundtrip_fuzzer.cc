// The round-trip fuzzer over a policy with a planted false negative: run it by
// hand to see libFuzzer find the bug (tests/fuzz/README.md). Not run by CI: it
// is meant to crash.
#include "filter/testing/planted_policy.h"
#include "tests/fuzz/fuzz_checks.h"

SSTFILTER_ROUNDTRIP_FUZZER(sstfilter::fuzz::NewDropLastKeyPolicy)
