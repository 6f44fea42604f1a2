#include <cstdio>
#include "filter/burr/burr.h"
#include "filter/burr/burr_format.h"
#include "filter/burr/burr_impl.h"
#include "filter/bloom/bloom_test_util.h"
#include "gtest/gtest.h"
namespace sstfilter { namespace burr_internal { namespace {
using ::sstfilter::bloom_test::BuildFilter;
using ::sstfilter::bloom_test::CountMatches;
using ::sstfilter::bloom_test::Keys16;
TEST(Stats, Print) {
  for (uint64_t n : {100ull, 10000ull, 1000000ull}) {
    auto policy = NewBumpedRibbonFilterPolicy(FilterOptions::Fpp(0.01));
    std::string f = BuildFilter(**policy, Keys16(0, 0, n));
    ParsedFilter parsed = ParseFilter(f);
    auto reader = (*policy)->NewReader(f);
    uint64_t fn = n - CountMatches(*reader, 0, 0, n);
    uint64_t probes = 2000000;
    uint64_t fp = CountMatches(*reader, 1, 0, probes);
    std::printf("n=%llu bytes=%zu bits/key=%.4f layers=%zu seed=%llu fn=%llu fp=%.4f%% exp=%.4f%%\n",
      (unsigned long long)n, f.size(), 8.0*f.size()/n, parsed.layers.size(), (unsigned long long)parsed.seed,
      (unsigned long long)fn, 100.0*fp/probes, 100*reader->ExpectedFpp());
    for (auto& l : parsed.layers) std::printf("  seg=%llu bps=%llu up=%llu\n", (unsigned long long)l.shape.num_segments, (unsigned long long)l.shape.segment_blocks, (unsigned long long)l.shape.upper_start);
  }
}
}}}
