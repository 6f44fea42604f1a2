// Checks for saved in-memory filters (MutableBloomFilter, ScalableBloomFilter
// and CountingBloomFilter Save and Restore), shared by their tests and the
// fuzz target: whether a restored filter is the one saved, whether damaged
// bytes are refused, and forged bytes that pass the CRC.

#ifndef SSTFILTER_INMEMORY_TESTING_SAVED_FILTERS_H_
#define SSTFILTER_INMEMORY_TESTING_SAVED_FILTERS_H_

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "inmemory/counting/counting_bloom.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/scalable_bloom.h"

namespace sstfilter {
namespace test {

// OK when restored answers MayContain as original does for every key, single
// and batched, and every statistic, size and name of the two is equal; an
// InternalError naming the first difference otherwise.
absl::Status CompareRestored(const MutableBloomFilter& original,
                             const MutableBloomFilter& restored,
                             absl::Span<const std::string> keys);
// Also the options' layers: capacity, keys, rate and shape of each.
absl::Status CompareRestored(const ScalableBloomFilter& original,
                             const ScalableBloomFilter& restored,
                             absl::Span<const std::string> keys);
// Also operator==, the key and saturated counts.
absl::Status CompareRestored(const CountingBloomFilter& original,
                             const CountingBloomFilter& restored,
                             absl::Span<const std::string> keys);

// The status of restoring bytes as one class does, e.g.
// &RestoreStatusOf<MutableBloomFilter>.
using RestoreStatus = std::function<absl::Status(absl::string_view bytes)>;
template <typename Filter>
absl::Status RestoreStatusOf(absl::string_view bytes) {
  return Filter::Restore(bytes).status();
}

// Filter::Restore(saved), which must succeed: the test fails, and then aborts,
// when it does not.
template <typename Filter>
auto MustRestore(absl::string_view saved) {
  auto restored = Filter::Restore(saved);
  EXPECT_TRUE(restored.ok()) << restored.status();
  return *std::move(restored);
}

// OK when restore refuses bytes with a DataLossError whose message begins
// "saved " and holds message; an InternalError saying what it did otherwise.
absl::Status CheckRefused(const RestoreStatus& restore, absl::string_view bytes,
                          absl::string_view message);

// OK when restore gives a DataLossError for every proper prefix of saved
// (the empty one included) and for saved with any one bit flipped; an
// InternalError naming the first bytes it accepted, or refused otherwise.
// Each input sits in a heap buffer of exactly its size, so that
// AddressSanitizer sees a read past its end.
absl::Status CheckDamageIsRefused(absl::string_view saved,
                                  const RestoreStatus& restore);

// saved with bytes written at offset (appended where they pass its end), then
// its total and CRC set to match: bytes only the field checks can refuse.
// offset counts from the start of saved. saved itself when it is too short to
// hold a header and a CRC. REQUIRES: offset <= saved's size minus the CRC's
// four bytes.
std::string Forge(absl::string_view saved, size_t offset,
                  absl::string_view bytes);

// The little-endian bytes of a 64-bit value, and of a double's bits: what to
// Forge into a field.
std::string Fixed64Bytes(uint64_t value);
std::string DoubleBytes(double value);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_TESTING_SAVED_FILTERS_H_
