// Checks for saved in-memory filters (MutableBloomFilter, ScalableBloomFilter
// and CountingBloomFilter Save and Restore), shared by their tests and the
// fuzz target: whether a restored filter is the one saved, whether damaged
// bytes are refused, and forged bytes that pass the CRC.

#ifndef SSTFILTER_INMEMORY_TESTING_SAVED_FILTERS_H_
#define SSTFILTER_INMEMORY_TESTING_SAVED_FILTERS_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
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

// The filter a Restore result holds: the filter itself, or the one a pointer
// holds (ScalableBloomFilter::Restore gives a std::unique_ptr).
template <typename Filter>
const Filter& FilterOf(const Filter& filter) {
  return filter;
}
template <typename Filter>
const Filter& FilterOf(const std::unique_ptr<Filter>& filter) {
  return *filter;
}

// OK when restored, which Restore made of saved, saves to the very same
// bytes; an InternalError giving both sizes otherwise.
template <typename Filter>
absl::Status CheckSavesAgain(const Filter& restored, absl::string_view saved) {
  const std::string again = restored.Save();
  if (again == saved) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(
      "Save() of a restored filter gives other bytes: ", again.size(),
      " instead of ", saved.size()));
}

// OK when restored, which Restore made of saved (original's Save()), saves to
// saved again (CheckSavesAgain) and answers and measures as original on keys
// (CompareRestored).
template <typename Filter>
absl::Status CheckRestored(const Filter& original, const Filter& restored,
                           absl::string_view saved,
                           absl::Span<const std::string> keys) {
  if (absl::Status status = CheckSavesAgain(restored, saved); !status.ok()) {
    return status;
  }
  return CompareRestored(original, restored, keys);
}

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

// The saved bytes of an empty filter of class Filter (10 expected keys; rate
// 0.01), and the class's name as Restore's errors give it. For
// MutableBloomFilter, ScalableBloomFilter and CountingBloomFilter.
template <typename Filter>
std::string SmallSaved();
template <typename Filter>
const char* ClassName();

// The checks above for one class of filter (MutableBloomFilter,
// ScalableBloomFilter or CountingBloomFilter), for the TEST_F cases of its
// save test: using MutableBloomSaveTest = SavedFilterTest<MutableBloomFilter>.
template <typename Filter>
class SavedFilterTest : public ::testing::Test {
 protected:
  // What Filter::Restore gives: Filter, or a pointer to one.
  using Restored = std::decay_t<decltype(*Filter::Restore(""))>;

  // Restore refuses bytes with a DataLossError saying message (CheckRefused).
  static void ExpectRefused(absl::string_view bytes,
                            absl::string_view message) {
    const absl::Status refused =
        CheckRefused(&RestoreStatusOf<Filter>, bytes, message);
    EXPECT_TRUE(refused.ok()) << refused;
  }

  // Restore refuses every truncation and bit flip of saved
  // (CheckDamageIsRefused).
  static void ExpectDamageRefused(absl::string_view saved) {
    const absl::Status status =
        CheckDamageIsRefused(saved, &RestoreStatusOf<Filter>);
    EXPECT_TRUE(status.ok()) << status;
  }

  // original.Save() restores (the test fails, and then aborts, when it does
  // not) to a filter that saves to the same bytes and answers and measures as
  // original on keys (CheckRestored). Returns that filter.
  static Restored ExpectRestoresAlike(const Filter& original,
                                      absl::Span<const std::string> keys) {
    const std::string saved = original.Save();
    Restored restored = MustRestore<Filter>(saved);
    const absl::Status status =
        CheckRestored(original, FilterOf(restored), saved, keys);
    EXPECT_TRUE(status.ok()) << status;
    return restored;
  }

  // The refusals of the envelope every saved filter has
  // (filter/internal/saved_filter.h), each naming why: no bytes; saved cut to
  // its first `cut` bytes; saved with `flip` xored into byte damaged_at (the
  // CRC32C); and a Foreign filter's saved bytes (SmallSaved), refused as
  // "wrong kind: <Foreign> bytes given to <Filter>::Restore".
  template <typename Foreign>
  static void ExpectEnvelopeRefusals(absl::string_view saved, size_t cut,
                                     size_t damaged_at, char flip) {
    ExpectRefused("", "no bytes");
    ExpectRefused(
        saved.substr(0, cut),
        absl::StrCat("truncated: ", cut, " bytes, header says ", saved.size()));
    std::string damaged(saved);
    damaged[damaged_at] ^= flip;
    ExpectRefused(damaged, "CRC32C mismatch");
    ExpectRefused(
        SmallSaved<Foreign>(),
        absl::StrCat("wrong kind: ", ClassName<Foreign>(), " bytes given to ",
                     ClassName<Filter>(), "::Restore"));
  }
};

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
