// Round trips through RocksDB 7.8.3's full filter formats: keys from the
// input, a filter built, every added key must match, and RocksDB's own reader
// must answer as ours does.
//
// Input (missing bytes read as zero):
//   [1 byte: format, mod 3: FastLocalBloom, legacy Bloom, Ribbon]
//   [1 byte b: bits per key = 1 + (b % 199) / 2, from 1 to 100]
//   [1 byte: synthetic key count / 2] [1 byte: synthetic key salt]
//   ([1 byte: key length L] [L bytes: key])*   at most 256 explicit keys
//
// FastLocalBloom and legacy Bloom are built by our policies and by RocksDB's
// builder: the bytes must be identical. Ribbon is built by RocksDB only (we
// read it, RocksDB writes it). Then every added key matches through our
// reader (single, batched, KeyMayMatch) and RocksDB's (single, batched), and
// for 64 absent keys the two readers give the same answers.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "filter/rocksdb/rocksdb_bloom.h"
#include "filter/rocksdb/rocksdb_oracle.h"
#include "filter/rocksdb/rocksdb_reader.h"
#include "filter/rocksdb/rocksdb_test_util.h"
#include "tests/fuzz/fuzz_checks.h"

namespace sstfilter {
namespace fuzz {
namespace {

constexpr size_t kMaxExplicitKeys = 256;
constexpr size_t kAbsentKeys = 64;

const char* const kFormatNames[] = {"FastLocalBloom", "legacy Bloom", "Ribbon"};

absl::Status CheckRocksDbRoundTrip(const uint8_t* data, size_t size) {
  ByteReader in(data, size);
  const int format = in.Byte() % 3;
  const double bits_per_key = 1 + (in.Byte() % 199) / 2.0;
  const size_t num_synthetic = 2 * size_t{in.Byte()};
  const char salt = static_cast<char>(in.Byte());
  std::vector<std::string> keys;
  while (!in.AtEnd() && keys.size() < kMaxExplicitKeys) {
    keys.emplace_back(in.Bytes(in.Byte()));
  }
  for (size_t i = 0; i < num_synthetic; ++i) {
    keys.push_back(absl::StrCat(i) + salt);
  }
  const std::string what =
      absl::StrCat(kFormatNames[format], " at ", bits_per_key, " bits/key, ",
                   keys.size(), " keys");

  static const test::RocksDbBuilderKind kKinds[] = {
      test::RocksDbBuilderKind::kFastLocalBloom,
      test::RocksDbBuilderKind::kLegacyBloom,
      test::RocksDbBuilderKind::kRibbon};
  const std::string theirs =
      test::RocksDbBuildFilter(kKinds[format], bits_per_key, keys);
  const std::vector<absl::string_view> views(keys.begin(), keys.end());
  if (format != 2) {
    const FilterOptions options = FilterOptions::BitsPerKey(bits_per_key);
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        format == 0 ? NewRocksDbFastBloomFilterPolicy(options)
                    : NewRocksDbLegacyBloomFilterPolicy(options);
    if (!policy.ok()) {
      return absl::InternalError(
          absl::StrCat(what, ": ", policy.status().ToString()));
    }
    std::string ours;
    (*policy)->CreateFilter(views, &ours);
    if (keys.empty() && test::kRocksDbBuildsNothingForNoKeys) {
      // Both match nothing.
      if (!theirs.empty() || (*policy)->KeyMayMatch("", ours)) {
        return absl::InternalError(absl::StrCat(
            what, ": no keys gave ", theirs.size(),
            " bytes from RocksDB, or a filter of ours that matches"));
      }
    } else if (ours != theirs) {
      return absl::InternalError(absl::StrCat(
          what, ": our filter (", ours.size(),
          " bytes) differs from RocksDB's (", theirs.size(), " bytes)"));
    }
  }

  const rocksdb_test::PrivateCopy copy(theirs);
  const absl::string_view filter = copy.view();
  const std::unique_ptr<FilterReader> ours = NewRocksDbFilterReader(filter);
  const test::RocksDbOracleReader rocksdb(filter);
  const std::unique_ptr<bool[]> batched(new bool[views.size()]);
  const std::unique_ptr<bool[]> rocksdb_batched(new bool[views.size()]);
  ours->MayMatch(views, batched.get());
  rocksdb.MayMatch(views, rocksdb_batched.get());
  for (size_t i = 0; i < views.size(); ++i) {
    const char* path = nullptr;
    if (!ours->MayMatch(views[i])) {
      path = "our MayMatch";
    } else if (!batched[i]) {
      path = "our batched MayMatch";
    } else if (!rocksdb_internal::FilterMayMatch(filter, views[i])) {
      path = "our KeyMayMatch";
    } else if (!rocksdb.MayMatch(views[i])) {
      path = "RocksDB's MayMatch";
    } else if (!rocksdb_batched[i]) {
      path = "RocksDB's batched MayMatch";
    }
    if (path != nullptr) {
      return absl::InternalError(
          absl::StrCat(what, ": false negative from ", path,
                       " for added key \"", absl::CHexEscape(views[i]), "\""));
    }
  }
  for (size_t i = 0; i < kAbsentKeys; ++i) {
    const std::string key = absl::StrCat("absent", i) + salt;
    const bool answer = ours->MayMatch(key);
    if (answer != rocksdb.MayMatch(key)) {
      return absl::InternalError(
          absl::StrCat(what, ": for absent key \"", absl::CHexEscape(key),
                       "\" we answer ", answer, ", RocksDB ", !answer));
    }
  }
  return absl::OkStatus();
}

std::string Input(int format, int bits_byte, int synthetic_units,
                  const std::vector<std::string>& keys) {
  std::string s = {static_cast<char>(format), static_cast<char>(bits_byte),
                   static_cast<char>(synthetic_units), 's'};
  for (const std::string& key : keys) {
    s.push_back(static_cast<char>(key.size()));
    s += key;
  }
  return s;
}

std::vector<Seed> RocksDbRoundTripSeeds() {
  const std::vector<std::string> hello_world = {"hello", "world"};
  std::vector<Seed> seeds;
  const char* const names[] = {"fast_local_bloom", "legacy_bloom", "ribbon"};
  for (int format = 0; format < 3; ++format) {
    seeds.push_back({absl::StrCat(names[format], "_bits10_hello_world"),
                     Input(format, 18, 0, hello_world)});
    seeds.push_back(
        {absl::StrCat(names[format], "_no_keys"), Input(format, 18, 0, {})});
    seeds.push_back({absl::StrCat(names[format], "_bits1_200_keys"),
                     Input(format, 0, 100, hello_world)});
    seeds.push_back({absl::StrCat(names[format], "_bits7.5_510_keys"),
                     Input(format, 13, 255, {""})});
    seeds.push_back({absl::StrCat(names[format], "_bits100_duplicates"),
                     Input(format, 198, 3, {"a", "a", "b", "b"})});
  }
  return seeds;
}

[[maybe_unused]] const bool kSeedsRegistered =
    (RegisterSeedGenerator(&RocksDbRoundTripSeeds), true);

}  // namespace
}  // namespace fuzz
}  // namespace sstfilter

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::fuzz::AbortIfError(
      sstfilter::fuzz::CheckRocksDbRoundTrip(data, size),
      "RocksDB round-trip check");
  return 0;
}
