// One native Bloom filter reader of each probe path shared by 4 threads
// querying at once (single, batched and ExpectedFpp): readers are immutable, so
// every thread sees the answers a lone thread sees. The contract suite
// (tests/testing/policy_contract_test.cc) checks the policy's default path;
// this checks every path this CPU runs, the scalar one on AVX2 machines too.
// Tagged "tsan": run under `bazel test --config=tsan
// //filter/bloom:bloom_threads_test`.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "filter/bloom/bloom.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace bloom_internal {
namespace {

using ::sstfilter::test::BuildFilter;
using ::sstfilter::test::Key16;
using ::sstfilter::test::Keys16;

TEST(BloomThreadsTest, FourThreadsShareOneReaderOfEachPath) {
  // Present (set 0) and absent (set 1) keys, interleaved.
  std::vector<std::string> queries;
  for (uint64_t i = 0; i < 40000; ++i) queries.push_back(Key16(i % 2, i / 2));
  for (ProbePath path : {ProbePath::kScalar, ProbePath::kAvx2}) {
    if (!ProbePathAvailable(path)) continue;
    std::unique_ptr<const FilterPolicy> policy = std::move(
        *NewBloomFilterPolicyWithPath(FilterOptions::Fpp(0.01), path));
    const std::string filter = BuildFilter(*policy, Keys16(0, 0, 20000));
    EXPECT_EQ(test::SharedReaderMismatches(*policy, filter, queries,
                                           /*threads=*/4),
              0u)
        << "path " << static_cast<int>(path);
  }
}

}  // namespace
}  // namespace bloom_internal
}  // namespace sstfilter
