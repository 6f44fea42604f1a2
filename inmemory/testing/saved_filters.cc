#include "inmemory/testing/saved_filters.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "filter/filter_policy.h"
#include "filter/internal/saved_filter.h"
#include "util/coding.h"

namespace sstfilter {
namespace test {
namespace {

// MayContain of each key, single and batched, on both filters.
template <typename Filter>
absl::Status CompareAnswers(const Filter& original, const Filter& restored,
                            absl::Span<const std::string> keys) {
  const std::vector<absl::string_view> views(keys.begin(), keys.end());
  std::unique_ptr<bool[]> original_batch(new bool[keys.size() + 1]);
  std::unique_ptr<bool[]> restored_batch(new bool[keys.size() + 1]);
  original.MayContain(absl::MakeConstSpan(views), original_batch.get());
  restored.MayContain(absl::MakeConstSpan(views), restored_batch.get());
  for (size_t i = 0; i < keys.size(); ++i) {
    const bool expected = original.MayContain(keys[i]);
    if (original_batch[i] != expected || restored_batch[i] != expected ||
        restored.MayContain(keys[i]) != expected) {
      return absl::InternalError(absl::StrCat(
          "key ", i, " (\"", absl::CEscape(keys[i]), "\"): the original says ",
          expected, ", the restored filter ", restored.MayContain(keys[i]),
          "; batched ", original_batch[i], " and ", restored_batch[i]));
    }
  }
  return absl::OkStatus();
}

// Collects the statistics that differ.
class Differences {
 public:
  template <typename T>
  void Compare(absl::string_view name, const T& original, const T& restored) {
    if (original == restored) return;
    absl::StrAppend(&text_, text_.empty() ? "" : "; ", name, ": ", original,
                    " saved, ", restored, " restored");
  }

  absl::Status Status() const {
    return text_.empty() ? absl::OkStatus() : absl::InternalError(text_);
  }

 private:
  std::string text_;
};

// A heap copy of exactly bytes.size() bytes.
std::unique_ptr<char[]> ExactCopy(absl::string_view bytes) {
  std::unique_ptr<char[]> copy(
      new char[bytes.size() + (bytes.empty() ? 1 : 0)]);
  if (!bytes.empty()) std::memcpy(copy.get(), bytes.data(), bytes.size());
  return copy;
}

// OK when restore refuses bytes with a DataLossError.
absl::Status ExpectRefused(absl::string_view bytes, absl::string_view what,
                           const RestoreStatus& restore) {
  const std::unique_ptr<char[]> copy = ExactCopy(bytes);
  const absl::Status status =
      restore(absl::string_view(copy.get(), bytes.size()));
  if (absl::IsDataLoss(status)) return absl::OkStatus();
  return absl::InternalError(
      absl::StrCat(what, ": restored with ", status.ToString()));
}

}  // namespace

absl::Status CompareRestored(const MutableBloomFilter& original,
                             const MutableBloomFilter& restored,
                             absl::Span<const std::string> keys) {
  Differences d;
  d.Compare("NumProbes", original.NumProbes(), restored.NumProbes());
  d.Compare("BitsPerKey", original.BitsPerKey(), restored.BitsPerKey());
  d.Compare("ExpectedKeys", original.ExpectedKeys(), restored.ExpectedKeys());
  d.Compare("NumBits", original.NumBits(), restored.NumBits());
  d.Compare("MemoryBytes", original.MemoryBytes(), restored.MemoryBytes());
  d.Compare("BitsSet", original.BitsSet(), restored.BitsSet());
  d.Compare("ApproximateCount", original.ApproximateCount(),
            restored.ApproximateCount());
  d.Compare("ExpectedFpp", original.ExpectedFpp(), restored.ExpectedFpp());
  d.Compare("FrozenFormatName", std::string(original.FrozenFormatName()),
            std::string(restored.FrozenFormatName()));
  if (original.Freeze() != restored.Freeze()) {
    d.Compare("Freeze()", std::string("its bytes"), std::string("others"));
  }
  if (absl::Status status = d.Status(); !status.ok()) return status;
  return CompareAnswers(original, restored, keys);
}

absl::Status CompareRestored(const ScalableBloomFilter& original,
                             const ScalableBloomFilter& restored,
                             absl::Span<const std::string> keys) {
  Differences d;
  d.Compare("NumLayers", original.NumLayers(), restored.NumLayers());
  d.Compare("MemoryBytes", original.MemoryBytes(), restored.MemoryBytes());
  d.Compare("ApproximateCount", original.ApproximateCount(),
            restored.ApproximateCount());
  d.Compare("ExpectedFpp", original.ExpectedFpp(), restored.ExpectedFpp());
  const std::vector<ScalableBloomFilter::LayerInfo> saved = original.Layers();
  const std::vector<ScalableBloomFilter::LayerInfo> now = restored.Layers();
  for (size_t i = 0; i < std::min(saved.size(), now.size()); ++i) {
    const std::string layer = absl::StrCat("layer ", i, " ");
    d.Compare(layer + "capacity", saved[i].capacity, now[i].capacity);
    d.Compare(layer + "keys", saved[i].keys, now[i].keys);
    d.Compare(layer + "fpp", saved[i].fpp, now[i].fpp);
    d.Compare(layer + "bits_per_key", saved[i].bits_per_key,
              now[i].bits_per_key);
    d.Compare(layer + "num_probes", saved[i].num_probes, now[i].num_probes);
    d.Compare(layer + "memory_bytes", saved[i].memory_bytes,
              now[i].memory_bytes);
  }
  if (absl::Status status = d.Status(); !status.ok()) return status;
  return CompareAnswers(original, restored, keys);
}

absl::Status CompareRestored(const CountingBloomFilter& original,
                             const CountingBloomFilter& restored,
                             absl::Span<const std::string> keys) {
  Differences d;
  d.Compare("NumKeys", original.NumKeys(), restored.NumKeys());
  d.Compare("NumSaturated", original.NumSaturated(), restored.NumSaturated());
  d.Compare("ExpectedKeys", original.ExpectedKeys(), restored.ExpectedKeys());
  d.Compare("NumProbes", original.NumProbes(), restored.NumProbes());
  d.Compare("NumCounters", original.NumCounters(), restored.NumCounters());
  d.Compare("MemoryBytes", original.MemoryBytes(), restored.MemoryBytes());
  d.Compare("BitsPerKey", original.BitsPerKey(), restored.BitsPerKey());
  d.Compare("ExpectedFpp", original.ExpectedFpp(), restored.ExpectedFpp());
  d.Compare("operator==", true, original == restored);
  if (absl::Status status = d.Status(); !status.ok()) return status;
  return CompareAnswers(original, restored, keys);
}

absl::Status CheckDamageIsRefused(absl::string_view saved,
                                  const RestoreStatus& restore) {
  for (size_t size = 0; size < saved.size(); ++size) {
    if (absl::Status status =
            ExpectRefused(saved.substr(0, size),
                          absl::StrCat("the first ", size, " bytes"), restore);
        !status.ok()) {
      return status;
    }
  }
  std::string flipped(saved);
  for (size_t bit = 0; bit < 8 * saved.size(); ++bit) {
    flipped[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    const absl::Status status =
        ExpectRefused(flipped, absl::StrCat("bit ", bit, " flipped"), restore);
    flipped[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status CheckRefused(const RestoreStatus& restore, absl::string_view bytes,
                          absl::string_view message) {
  const absl::Status status = restore(bytes);
  if (absl::IsDataLoss(status) &&
      absl::StartsWith(status.message(), "saved ") &&
      absl::StrContains(status.message(), message)) {
    return absl::OkStatus();
  }
  return absl::InternalError(absl::StrCat(
      "restoring \"", absl::CEscape(bytes), "\" gave ", status.ToString(),
      ", not a DataLossError saying \"", message, "\""));
}

template <>
std::string SmallSaved<MutableBloomFilter>() {
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(FilterOptions::Fpp(0.01), 10);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return filter.ok() ? filter->Save() : "";
}

template <>
std::string SmallSaved<ScalableBloomFilter>() {
  ScalableBloomOptions options;
  options.initial_keys = 10;
  absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> filter =
      ScalableBloomFilter::Create(options);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return filter.ok() ? (*filter)->Save() : "";
}

template <>
std::string SmallSaved<CountingBloomFilter>() {
  absl::StatusOr<CountingBloomFilter> filter =
      CountingBloomFilter::Create(FilterOptions::Fpp(0.01), 10);
  EXPECT_TRUE(filter.ok()) << filter.status();
  return filter.ok() ? filter->Save() : "";
}

template <>
const char* ClassName<MutableBloomFilter>() {
  return "MutableBloomFilter";
}
template <>
const char* ClassName<ScalableBloomFilter>() {
  return "ScalableBloomFilter";
}
template <>
const char* ClassName<CountingBloomFilter>() {
  return "CountingBloomFilter";
}

std::string Forge(absl::string_view saved, size_t offset,
                  absl::string_view bytes) {
  if (saved.size() < filter_internal::kSavedMinBytes) return std::string(saved);
  std::string forged(
      saved.substr(0, saved.size() - filter_internal::kSavedCrcBytes));
  if (forged.size() < offset + bytes.size()) {
    forged.resize(offset + bytes.size());
  }
  forged.replace(offset, bytes.size(), bytes.data(), bytes.size());
  filter_internal::FinishSaved(&forged);
  return forged;
}

std::string Fixed64Bytes(uint64_t value) {
  std::string bytes;
  PutFixed64(&bytes, value);
  return bytes;
}

std::string DoubleBytes(double value) {
  std::string bytes;
  filter_internal::PutSavedDouble(&bytes, value);
  return bytes;
}

}  // namespace test
}  // namespace sstfilter
