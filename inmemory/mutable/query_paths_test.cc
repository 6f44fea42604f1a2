// The two query paths of MutableBloomFilter, portable and AVX2, against each
// other and against the native readers of the same bits: random bodies of
// every density and probe counts from 1 to 30, single, by hash and batched.

#include "inmemory/mutable/query_paths.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/cache_aligned_words.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace mutable_internal {
namespace {

using ::sstfilter::bloom::ProbePath;
using ::sstfilter::test::Key16;

std::vector<const QueryPath*> Paths(int num_probes) {
  std::vector<const QueryPath*> paths = {&ScalarQueryPath()};
#if SSTFILTER_HAVE_AVX2_PATH
  if (bloom::CpuHasAvx2()) {
    paths.push_back(&Avx2QueryPath(num_probes));
  }
#endif
  return paths;
}

TEST(QueryPathsTest, BestIsAvx2WhenTheCpuHasIt) {
  for (int k : {1, 8, 9, 30}) {
    EXPECT_EQ(&BestQueryPath(k), Paths(k).back()) << k;
  }
}

TEST(QueryPathsTest, PathsAndNativeReadersAgree) {
  constexpr uint64_t kBlocks = 97;
  constexpr uint64_t kKeys = 20000;
  test::Random rng(7);
  absl::StatusOr<CacheAlignedWords> words =
      CacheAlignedWords::Allocate(kBlocks * kWordsPerBlock);
  ASSERT_TRUE(words.ok());
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < kKeys; ++i) keys.push_back(Key16(3, i));
  std::vector<absl::string_view> views(keys.begin(), keys.end());
  std::unique_ptr<bool[]> batch(new bool[kKeys]);
  std::unique_ptr<bool[]> native_batch(new bool[kKeys]);

  for (int k : {1, 2, 6, 8, 9, 16, 17, 24, 25, 30}) {
    // Each bit set with probability density / 64: from empty to full.
    for (int density : {0, 8, 32, 56, 63, 64}) {
      std::string body(kBlocks * bloom::kBlockBytes, '\0');
      for (uint64_t w = 0; w < words->size(); ++w) {
        uint64_t word = 0;
        for (int bit = 0; bit < 64; ++bit) {
          if (rng.Uniform(64) < static_cast<uint64_t>(density)) {
            word |= uint64_t{1} << bit;
          }
        }
        words->data()[w].store(word, std::memory_order_relaxed);
        EncodeFixed64(&body[w * 8], word);
      }
      // The same bits as a native filter: a count of one key per 10 bits
      // keeps the trailer consistent.
      std::string filter = body;
      bloom::AppendTrailer(kBlocks * 512 / 10, k, &filter);
      const BodyView view{words->data(), kBlocks, k};

      uint64_t matches = 0;
      for (ProbePath native_path : {ProbePath::kScalar, ProbePath::kAvx2}) {
        if (!bloom::ProbePathAvailable(native_path)) continue;
        std::unique_ptr<FilterReader> reader =
            (*bloom::NewBloomFilterPolicyWithPath(
                 test::Version1(FilterOptions::BitsPerKey(10)), native_path))
                ->NewReader(filter);
        reader->MayMatch(absl::MakeConstSpan(views), native_batch.get());
        for (const QueryPath* path : Paths(k)) {
          path->contains_batch(view, absl::MakeConstSpan(views), batch.get());
          for (uint64_t i = 0; i < kKeys; ++i) {
            const bool expected = native_batch[i];
            ASSERT_EQ(path->contains(view, keys[i]), expected)
                << "k " << k << " density " << density << " key " << i;
            ASSERT_EQ(path->contains_hash(view, bloom::KeyHash(keys[i])),
                      expected);
            ASSERT_EQ(batch[i], expected);
            matches += expected;
          }
        }
      }
      // The cases are not all trivially empty or full.
      if (density == 0) {
        EXPECT_EQ(matches, 0u);
      } else if (density == 64) {
        EXPECT_GT(matches, 0u);
      } else if (density == 32 && k <= 2) {
        EXPECT_GT(matches, 0u);  // half the bits set: some keys match
      }
    }
  }
}

}  // namespace
}  // namespace mutable_internal
}  // namespace sstfilter
