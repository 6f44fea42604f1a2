// Fuzzes Save and Restore of the three in-memory filters (MutableBloomFilter,
// ScalableBloomFilter, CountingBloomFilter). Restore must take any bytes and
// give a filter or a DataLossError, never crash or read out of bounds (the
// bytes sit in a buffer of exactly their size); a filter it gives must save to
// the very bytes it came from and restore again to a filter that answers and
// measures alike and takes more keys. And a filter built from keys must restore
// to one that matches every key it holds.
//
// Input format (every byte string decodes; missing bytes read as zero):
//   [1 byte m: kind = m % 3 (0 mutable, 1 scalable, 2 counting),
//              mode = (m / 3) % 4]
//   mode 0: the rest is given to the kind's Restore as it is
//   mode 1: the same, after its total and CRC are set to match the rest
//           (test::Forge), so that the fields' own checks are reached
//   mode 2: the rest builds a small filter of the kind, which is saved and
//           restored:
//     mutable   [sizing s][2 bytes: expected keys][flags: bit 0 clear:
//               self_checksum][ops]
//     scalable  [fpp index][initial keys][growth index][tightening index]
//               [ops]
//     counting  [counters/key][2 bytes: expected keys][ops]
//     ops: op < 128 adds an explicit key of op % 41 bytes, read next;
//          128 <= op < 192 adds (op - 127) * 4 synthetic keys; op >= 192
//          removes the newest (op - 191) keys held from a counting filter,
//          and adds synthetic keys as above to the others
//     sizing s: bit 0 clear Fpp(kFpps[(s >> 1) % 8]), set BitsPerKey(1 + (s
//     >> 1) * 99 / 127); counters/key 1 + c * 99 / 255
//   mode 3: the rest edits a valid saved filter of the kind: [example index]
//           ([word w][8 bytes: value])*, each writing the value over the
//           little-endian word at byte 8 * (w % min(32, size / 8)); then its
//           total and CRC are set to match and it is restored as in mode 0.
//           Every field sits in such a word, and the first 32 words hold
//           every field of the examples but those of the later layers of
//           the largest scalable one: a field's checks are one byte away, where
//           mode 1's inserted and erased bytes move every field and most of its
//           byte changes land in a body.
// Filters stay small (at most kMaxExpectedKeys expected keys and kMaxKeys
// keys; scalable filters kMaxScalableKeys keys from a first layer of at least
// kMinInitialKeys growing at least 1.5 times, so at most six layers), so that
// an input costs well under a millisecond under the sanitizers.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_policy.h"
#include "inmemory/counting/counting_bloom.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/scalable_bloom.h"
#include "inmemory/testing/saved_filters.h"
#include "tests/fuzz/fuzz_checks.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

constexpr int kKinds = 3;
constexpr int kModes = 4;
enum Mode { kRestore = 0, kRestoreResealed = 1, kBuild = 2, kEdit = 3 };

constexpr double kFpps[8] = {0.5, 0.2, 0.05, 0.01, 1e-3, 1e-4, 1e-5, 1e-6};
constexpr double kGrowths[4] = {1.5, 2.0, 3.0, 4.0};
constexpr double kTightenings[4] = {0.3, 0.5, 0.8, 0.9};
constexpr uint64_t kMaxExpectedKeys = 512;
constexpr size_t kMaxKeys = 520;
// A scalable filter's keys and first layer: at most six layers, each of which
// costs a sizing from its rate (the slowest step of an input).
constexpr size_t kMaxScalableKeys = 160;
constexpr uint64_t kMinInitialKeys = 8;
constexpr uint64_t kAbsentKeys = 64;
// Held keys a built filter's restored copy is compared on, about.
constexpr size_t kSampledKeys = 64;
// Keys a restored filter is asked about, and how many it is given after.
constexpr size_t kDerivedKeys = 24;
constexpr size_t kAddedAfterRestore = 8;
// The 64-bit words of an example that mode 3 edits: its first 256 bytes.
constexpr size_t kEditedWords = 32;

void Check(const absl::Status& status, const char* what) {
  fuzz::AbortIfError(status, what);
}

void Fail(const std::string& what) {
  Check(absl::InternalError(what), "saved filter check");
}

// Keys to ask a restored filter about: fixed ones and pieces of its bytes,
// so that the fuzzer can steer them at the bits it sets.
std::vector<std::string> DerivedKeys(absl::string_view bytes) {
  std::vector<std::string> keys = {"", "a", "hello", "world"};
  for (size_t at = 0; keys.size() < kDerivedKeys && at < bytes.size();
       at += 13) {
    keys.emplace_back(bytes.substr(at, 8));
  }
  for (size_t i = 0; keys.size() < kDerivedKeys; ++i) {
    keys.push_back(absl::StrCat("derived", i));
  }
  return keys;
}

std::vector<std::string> AbsentKeys() {
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < kAbsentKeys; ++i) {
    keys.push_back(absl::StrCat("absent", i));
  }
  return keys;
}

// The three kinds behind one interface: Restore, and what the checks need.
// MutableBloomFilter and CountingBloomFilter are values.
template <typename Filter>
struct Kind {
  static absl::StatusOr<Filter> Restore(absl::string_view bytes) {
    return Filter::Restore(bytes);
  }
  static Filter& Of(Filter& filter) { return filter; }
  // Adds key; false when it cannot be added cheaply (then nothing is added).
  static bool Add(Filter& filter, const std::string& key) {
    filter.Add(key);
    return true;
  }
};

template <>
struct Kind<std::unique_ptr<ScalableBloomFilter>> {
  static absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> Restore(
      absl::string_view bytes) {
    return ScalableBloomFilter::Restore(bytes);
  }
  static ScalableBloomFilter& Of(std::unique_ptr<ScalableBloomFilter>& filter) {
    return *filter;
  }
  // Only while the newest layer has room: a restored filter's next layer may
  // be as large as its options say, far larger than the input.
  static bool Add(std::unique_ptr<ScalableBloomFilter>& filter,
                  const std::string& key) {
    const ScalableBloomFilter::LayerInfo newest = filter->Layers().back();
    if (newest.keys >= newest.capacity) return false;
    Check(filter->Add(key).status(), "ScalableBloomFilter::Add with room");
    return true;
  }
};

// filter came from saved: it saves to the same bytes, they restore to a filter
// that answers and measures alike, and that one matches keys added to it.
template <typename Filter>
void CheckRestored(Filter& filter, absl::string_view saved,
                   const std::vector<std::string>& keys) {
  using K = Kind<Filter>;
  Check(test::CheckSavesAgain(K::Of(filter), saved),
        "restored filter's Save()");
  const double fpp = K::Of(filter).ExpectedFpp();
  if (!(fpp >= 0 && fpp <= 1)) {
    Fail(absl::StrCat("ExpectedFpp() of a restored filter outside [0, 1]: ",
                      fpp));
  }
  absl::StatusOr<Filter> restored = K::Restore(saved);
  Check(restored.status(), "Restore of Save()");
  Check(test::CompareRestored(K::Of(filter), K::Of(*restored), keys),
        "restored filter against the one saved");
  for (size_t i = 0; i < kAddedAfterRestore; ++i) {
    const std::string key = absl::StrCat("added after restore ", i);
    if (!K::Add(*restored, key)) break;
    if (!K::Of(*restored).MayContain(key)) {
      Fail("a key added after Restore does not match: " + key);
    }
  }
}

// Modes 0 and 1: any bytes.
template <typename Filter>
void RestoreAnyBytes(absl::string_view bytes) {
  absl::StatusOr<Filter> filter = Kind<Filter>::Restore(bytes);
  if (!filter.ok()) {
    if (!absl::IsDataLoss(filter.status())) {
      Check(filter.status(), "Restore refused bytes without DataLossError");
    }
    return;
  }
  CheckRestored(*filter, bytes, DerivedKeys(bytes));
}

// The keys of a build-mode input, handed to add one at a time; removes (op >=
// 192) go to remove, or are read as adds of synthetic keys when it is empty.
void ReadOps(fuzz::ByteReader& in, size_t max_keys,
             const std::function<void(std::string)>& add,
             const std::function<void(int)>& remove) {
  uint64_t synthetic = 0;
  size_t keys = 0;
  while (!in.AtEnd() && keys < max_keys) {
    const uint8_t op = in.Byte();
    if (op < 128) {
      add(std::string(in.Bytes(op % 41)));
      ++keys;
    } else if (op < 192 || remove == nullptr) {
      for (int i = 0; i < (op - 127) * 4 && keys < max_keys; ++i, ++keys) {
        add(absl::StrCat("added", synthetic++));
      }
    } else {
      remove(op - 191);
    }
  }
}

// Mode 2: every held key matches the restored filter (asked in one batch:
// single queries are compared below), which answers a sample of held keys and
// absent ones as the filter saved, measures alike and saves to the same bytes.
template <typename Filter>
void CheckBuilt(Filter& filter, const std::vector<std::string>& held) {
  using K = Kind<Filter>;
  const std::string saved = K::Of(filter).Save();
  absl::StatusOr<Filter> restored = K::Restore(saved);
  Check(restored.status(), "Restore of a built filter's Save()");
  const std::vector<absl::string_view> views(held.begin(), held.end());
  const std::unique_ptr<bool[]> matched(new bool[held.size() + 1]);
  K::Of(*restored).MayContain(absl::MakeConstSpan(views), matched.get());
  for (size_t i = 0; i < held.size(); ++i) {
    if (!matched[i]) Fail("false negative after Restore: " + held[i]);
  }
  std::vector<std::string> keys = AbsentKeys();
  for (size_t i = 0; i < held.size(); i += 1 + held.size() / kSampledKeys) {
    keys.push_back(held[i]);
  }
  Check(test::CheckRestored(K::Of(filter), K::Of(*restored), saved, keys),
        "restored built filter against the one saved");
}

// Adds a key to filter and keeps it in *held.
template <typename Filter>
std::function<void(std::string)> AddAndHold(Filter& filter,
                                            std::vector<std::string>* held) {
  return [&filter, held](std::string key) {
    filter.Add(key);
    held->push_back(std::move(key));
  };
}

void BuildMutable(fuzz::ByteReader& in) {
  const uint8_t sizing = in.Byte();
  FilterOptions options =
      (sizing & 1) == 0
          ? FilterOptions::Fpp(kFpps[(sizing >> 1) % 8])
          : FilterOptions::BitsPerKey(1 + (sizing >> 1) * 99.0 / 127);
  const uint64_t expected_keys = 1 + in.Fixed(2) % kMaxExpectedKeys;
  options.self_checksum = (in.Byte() & 1) == 0;
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(options, expected_keys);
  Check(filter.status(), "MutableBloomFilter::Create");
  std::vector<std::string> held;
  ReadOps(in, kMaxKeys, AddAndHold(*filter, &held), nullptr);
  CheckBuilt(*filter, held);
}

void BuildScalable(fuzz::ByteReader& in) {
  ScalableBloomOptions options;
  options.fpp = kFpps[in.Byte() % 8];
  options.initial_keys = kMinInitialKeys + in.Byte() % 57;
  options.growth = kGrowths[in.Byte() % 4];
  options.tightening = kTightenings[in.Byte() % 4];
  absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> filter =
      ScalableBloomFilter::Create(options);
  // Rates past what 100 bits/key reach are refused; not what is fuzzed here.
  if (!filter.ok()) return;
  std::vector<std::string> held;
  bool full = false;
  ReadOps(
      in, kMaxScalableKeys,
      [&](std::string key) {
        if (full) return;
        const absl::StatusOr<bool> added = (*filter)->Add(key);
        full = !added.ok();  // a layer's rate past 100 bits/key
        if (added.ok()) held.push_back(std::move(key));
      },
      nullptr);
  CheckBuilt(*filter, held);
}

void BuildCounting(fuzz::ByteReader& in) {
  const FilterOptions options =
      FilterOptions::BitsPerKey(1 + in.Byte() * 99.0 / 255);
  const uint64_t expected_keys = 1 + in.Fixed(2) % kMaxExpectedKeys;
  absl::StatusOr<CountingBloomFilter> filter =
      CountingBloomFilter::Create(options, expected_keys);
  Check(filter.status(), "CountingBloomFilter::Create");
  std::vector<std::string> held;
  ReadOps(in, kMaxKeys, AddAndHold(*filter, &held), [&](int count) {
    for (int i = 0; i < count && !held.empty(); ++i) {
      if (!filter->Remove(held.back())) {
        Fail("Remove of a held key refused: " + held.back());
      }
      held.pop_back();
    }
  });
  CheckBuilt(*filter, held);
}

// Valid saved filters of each kind (indexed as the selector's kind), with 0,
// 3 and 200 keys; the counting ones with a saturated counter and a key
// removed. Made once.
const std::vector<std::string>& Examples(int kind) {
  static const std::vector<std::string>* const examples = [] {
    auto* saved = new std::vector<std::string>[kKinds];
    for (uint64_t keys : {0, 12, 200}) {
      absl::StatusOr<MutableBloomFilter> mutable_filter =
          MutableBloomFilter::Create(FilterOptions::Fpp(0.01), 100);
      absl::StatusOr<CountingBloomFilter> counting =
          CountingBloomFilter::Create(FilterOptions::BitsPerKey(10), 50);
      ScalableBloomOptions options;
      options.initial_keys = 8;
      absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> scalable =
          ScalableBloomFilter::Create(options);
      Check(mutable_filter.status(), "example");
      Check(counting.status(), "example");
      Check(scalable.status(), "example");
      for (uint64_t i = 0; i < keys; ++i) {
        const std::string key = absl::StrCat("example", i);
        mutable_filter->Add(key);
        counting->Add(key);
        Check((*scalable)->Add(key).status(), "example");
      }
      for (int i = 0; i < 16 && keys > 0; ++i) counting->Add("hot");
      if (keys > 0) counting->Remove("example0");
      saved[0].push_back(mutable_filter->Save());
      saved[1].push_back((*scalable)->Save());
      saved[2].push_back(counting->Save());
    }
    return saved;
  }();
  return examples[kind];
}

// Mode 3: an example with words written over it.
std::string Edited(int kind, fuzz::ByteReader& in) {
  const std::vector<std::string>& examples = Examples(kind);
  std::string bytes = examples[in.Byte() % examples.size()];
  const size_t words = std::min<size_t>(kEditedWords, bytes.size() / 8);
  while (!in.AtEnd()) {
    const size_t word = in.Byte() % words;
    EncodeFixed64(&bytes[8 * word], in.Fixed(8));
  }
  return bytes;
}

void CheckSavedFilter(const uint8_t* data, size_t size) {
  fuzz::ByteReader in(data, size);
  const uint8_t selector = in.Byte();
  const int kind = selector % kKinds;
  const int mode = (selector / kKinds) % kModes;
  if (mode == kBuild) {
    if (kind == 0) BuildMutable(in);
    if (kind == 1) BuildScalable(in);
    if (kind == 2) BuildCounting(in);
    return;
  }
  std::string bytes =
      mode == kEdit ? Edited(kind, in) : std::string(in.Bytes(size));
  if (mode != kRestore) bytes = test::Forge(bytes, 0, "");
  // In a buffer of exactly its size: a read past the end is an ASan report.
  const std::unique_ptr<char[]> exact(new char[bytes.size() + 1]);
  bytes.copy(exact.get(), bytes.size());
  const absl::string_view view(exact.get(), bytes.size());
  if (kind == 0) RestoreAnyBytes<MutableBloomFilter>(view);
  if (kind == 1) RestoreAnyBytes<std::unique_ptr<ScalableBloomFilter>>(view);
  if (kind == 2) RestoreAnyBytes<CountingBloomFilter>(view);
}

// Seeds: the examples of each kind (as they are, resealed and edited), and
// built filters.
std::vector<fuzz::Seed> Seeds() {
  const auto selector = [](int kind, int mode) {
    return std::string(1, static_cast<char>(kind + kKinds * mode));
  };
  const char* const kKindNames[kKinds] = {"mutable", "scalable", "counting"};
  const char* const kKeys[] = {"0_keys", "12_keys", "200_keys"};
  std::vector<fuzz::Seed> seeds;
  for (int kind = 0; kind < kKinds; ++kind) {
    for (size_t i = 0; i < Examples(kind).size(); ++i) {
      const std::string name = absl::StrCat(kKindNames[kind], "_", kKeys[i]);
      const std::string& saved = Examples(kind)[i];
      seeds.push_back({"saved_" + name, selector(kind, kRestore) + saved});
      seeds.push_back(
          {"resealed_" + name, selector(kind, kRestoreResealed) + saved});
    }
    // The example of 12 keys with its third word (the first of the kind's
    // fields) set to 7.
    seeds.push_back({absl::StrCat("edited_", kKindNames[kind], "_12_keys"),
                     selector(kind, kEdit) + std::string("\x01\x02\x07", 3) +
                         std::string(7, '\0')});
  }
  const std::string hello_world = std::string("\x05hello\x05world", 12);
  seeds.push_back(
      {"build_mutable_fpp0.01_hello_world",
       selector(0, kBuild) + std::string("\x06\xe7\x03\x00", 4) + hello_world});
  seeds.push_back(
      {"build_mutable_bits10_v1_200_keys",
       selector(0, kBuild) + std::string("\x19\x63\x00\x01", 4) + "\xb1"});
  seeds.push_back({"build_scalable_many_layers",
                   selector(1, kBuild) + std::string("\x03\x00\x00\x01", 4) +
                       std::string(2, '\xbf')});
  seeds.push_back(
      {"build_scalable_hello_world",
       selector(1, kBuild) + std::string("\x00\x10\x01\x01", 4) + hello_world});
  seeds.push_back({"build_counting_saturated_then_removed",
                   selector(2, kBuild) + std::string("\x17\x00\x00", 3) +
                       std::string(20, '\0') + "\xc4\x83"});
  seeds.push_back(
      {"build_counting_many_blocks",
       selector(2, kBuild) + std::string("\x17\xff\x01", 3) + "\xbf\xbf\xe0"});
  seeds.push_back({"empty", ""});
  return seeds;
}

[[maybe_unused]] const bool kSeedsRegistered =
    (fuzz::RegisterSeedGenerator(&Seeds), true);

}  // namespace
}  // namespace sstfilter

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::CheckSavedFilter(data, size);
  return 0;
}
