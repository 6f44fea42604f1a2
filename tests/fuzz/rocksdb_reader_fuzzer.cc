// Fuzzes our reader of RocksDB 7.8.3's full filters (FastLocalBloom, legacy
// Bloom, Ribbon and the trailers that answer a constant) with arbitrary bytes,
// against RocksDB's own reader of the same bytes.
//
// Input: [1 byte: shape, mod 4][filter bytes]. Shape 0 takes the filter as it
// is; shapes 1-3 rewrite its last 5 bytes (when it has more than 5) into a
// well-formed trailer of one format, fields taken from those bytes, so that
// most inputs reach a format's probes rather than a constant answer:
//   1  FastLocalBloom: 0xFF 0x00 k 0x00 0x00, k = 1 + t[2] % 30
//   2  legacy Bloom: k = 1 + t[0] % 127; lines of 2^(t[1] % 7) bytes, the
//      body cut to whole lines
//   3  Ribbon: 0xFE, seed t[1], 2 + (t[2] | t[3] << 8) % (segments + 2)
//      blocks
//
// Checks: our answers agree single, batched and through KeyMayMatch;
// ExpectedFpp is in [0, 1] and 0 only if nothing matches; and RocksDB's
// reader gives the same answers, single and batched, wherever it reads the
// bytes safely (filter/rocksdb/README.md, "Reading any bytes": the rows
// marked (*) are reads outside the filter in RocksDB, answered "may match"
// here, so RocksDB is not asked about them).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/format_registry.h"
#include "filter/rocksdb/rocksdb_bloom.h"
#include "filter/rocksdb/rocksdb_oracle.h"
#include "filter/rocksdb/rocksdb_reader.h"
#include "filter/rocksdb/rocksdb_test_util.h"
#include "tests/fuzz/fuzz_checks.h"
#include "util/coding.h"

namespace sstfilter {
namespace fuzz {
namespace {

constexpr size_t kTrailerBytes = 5;

// The filter the input describes (see the format above).
std::string ShapeFilter(const uint8_t* data, size_t size) {
  if (size == 0) return std::string();
  const int shape = data[0] % 4;
  std::string filter(reinterpret_cast<const char*>(data + 1), size - 1);
  if (shape == 0 || filter.size() <= kTrailerBytes) return filter;
  const size_t body = filter.size() - kTrailerBytes;
  uint8_t t[kTrailerBytes];
  for (size_t i = 0; i < kTrailerBytes; ++i) {
    t[i] = static_cast<uint8_t>(filter[body + i]);
  }
  filter.resize(body);
  switch (shape) {
    case 1:
      return filter + rocksdb_test::NewBloomTrailer(0, 1 + t[2] % 30, 0, 0);
    case 2: {
      const size_t line_bytes = size_t{1} << (t[1] % 7);
      const uint32_t lines = static_cast<uint32_t>(body / line_bytes);
      filter.resize(lines * line_bytes);
      return filter + rocksdb_test::LegacyTrailer(1 + t[0] % 127, lines);
    }
    default: {
      const uint32_t segments = static_cast<uint32_t>(body / 16);
      const uint32_t blocks = 2 + (t[2] | t[3] << 8) % (segments + 2);
      return filter + rocksdb_test::RibbonTrailer(t[1], blocks);
    }
  }
}

// False for the filters on which RocksDB 7.8.3's reader reads outside the
// filter (the README's rows marked (*) that fuzz inputs can reach; the other
// two need filters of 256 MiB or more).
bool RocksDbReadsSafely(absl::string_view filter) {
  const RocksDbFilterInfo info = DescribeRocksDbFilter(filter);
  if (info.format != RocksDbFilterFormat::kAlwaysTrue ||
      filter.size() <= kTrailerBytes) {
    return true;
  }
  const size_t body = filter.size() - kTrailerBytes;
  const uint8_t* t = reinterpret_cast<const uint8_t*>(filter.data() + body);
  const int k = t[2] & 0x1F;
  if (t[0] == 0xFF && t[1] == 0 && (t[2] >> 5) == 0 && k >= 1 && k <= 30 &&
      t[3] == 0 && t[4] == 0 && body < 64) {
    return false;  // FastLocalBloom probing 64 bytes of a shorter body
  }
  if (t[0] >= 1 && t[0] <= 127) {
    const uint64_t lines = DecodeFixed32(filter.data() + body + 1);
    if (lines * 64 != body && ((lines * 64) & 0xffffffff) == body) {
      return false;  // legacy line count matching only modulo 2^32
    }
  }
  return true;
}

absl::Status CheckAgainstRocksDb(absl::string_view input_filter, bool ask_fpp) {
  const rocksdb_test::PrivateCopy copy(input_filter);
  const absl::string_view filter = copy.view();
  static const FilterFormat* const format =
      FindFilterFormat(kRocksDbBuiltinFilterName);
  const std::unique_ptr<FilterReader> ours = NewRocksDbFilterReader(filter);
  const std::vector<std::string> owned = ReaderQueryKeys(filter);
  const std::vector<absl::string_view> keys(owned.begin(), owned.end());
  const std::unique_ptr<bool[]> batched(new bool[keys.size()]);
  ours->MayMatch(keys, batched.get());
  std::unique_ptr<test::RocksDbOracleReader> rocksdb;
  std::unique_ptr<bool[]> rocksdb_batched;
  if (RocksDbReadsSafely(filter)) {
    rocksdb = std::make_unique<test::RocksDbOracleReader>(filter);
    rocksdb_batched.reset(new bool[keys.size()]);
    rocksdb->MayMatch(keys, rocksdb_batched.get());
  }
  // The legacy reader's ExpectedFpp samples 2^16 probes, about a millisecond
  // under the sanitizers: asked of one input in 16.
  const double fpp = ask_fpp ? ours->ExpectedFpp() : 0.5;
  if (!(fpp >= 0.0 && fpp <= 1.0)) {
    return absl::InternalError(absl::StrCat("ExpectedFpp() = ", fpp));
  }
  const std::string what = absl::StrCat(
      RocksDbFilterFormatName(DescribeRocksDbFilter(filter).format), " filter ",
      absl::BytesToHexString(
          filter.substr(filter.size() - std::min<size_t>(filter.size(), 5))));
  for (size_t i = 0; i < keys.size(); ++i) {
    const bool answer = ours->MayMatch(keys[i]);
    if (answer != batched[i] ||
        answer != format->KeyMayMatch(keys[i], filter)) {
      return absl::InternalError(absl::StrCat(what,
                                              ": our answers disagree for \"",
                                              absl::CHexEscape(keys[i]), "\""));
    }
    if (answer && fpp == 0.0) {
      return absl::InternalError(
          absl::StrCat(what, ": ExpectedFpp() is 0 but a key matches"));
    }
    if (rocksdb == nullptr) continue;
    const bool theirs = rocksdb->MayMatch(keys[i]);
    if (answer != theirs || answer != rocksdb_batched[i]) {
      return absl::InternalError(absl::StrCat(
          what, ": for \"", absl::CHexEscape(keys[i]), "\" we answer ", answer,
          ", RocksDB ", theirs, " (batched ", rocksdb_batched[i], ")"));
    }
  }
  return absl::OkStatus();
}

std::vector<Seed> RocksDbReaderSeeds() {
  std::vector<std::string> keys;
  for (int i = 0; i < 50; ++i) keys.push_back(absl::StrCat("key", i));
  std::vector<Seed> seeds = {{"empty", ""},
                             {"raw_short", std::string("\0abc", 4)},
                             {"raw_zero_marker", std::string(12, '\0')}};
  const struct {
    const char* name;
    test::RocksDbBuilderKind kind;
  } kinds[] = {{"fast_local_bloom", test::RocksDbBuilderKind::kFastLocalBloom},
               {"legacy_bloom", test::RocksDbBuilderKind::kLegacyBloom},
               {"ribbon", test::RocksDbBuilderKind::kRibbon}};
  for (const auto& kind : kinds) {
    const std::string filter = test::RocksDbBuildFilter(kind.kind, 10, keys);
    // Shape 0: RocksDB's bytes as they are; its own shape: the same trailer
    // rewritten from its fields.
    seeds.push_back({absl::StrCat(kind.name, "_50_keys"), '\0' + filter});
    seeds.push_back({absl::StrCat(kind.name, "_50_keys_cut"),
                     '\0' + filter.substr(0, filter.size() / 2) +
                         filter.substr(filter.size() - kTrailerBytes)});
  }
  seeds.push_back({"shape_fast_local_bloom", "\x01" + std::string(80, 'b')});
  seeds.push_back({"shape_legacy_bloom", "\x02" + std::string(70, 'l')});
  seeds.push_back({"shape_ribbon", "\x03" + std::string(100, 'r')});
  return seeds;
}

[[maybe_unused]] const bool kSeedsRegistered =
    (RegisterSeedGenerator(&RocksDbReaderSeeds), true);

}  // namespace
}  // namespace fuzz
}  // namespace sstfilter

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string filter = sstfilter::fuzz::ShapeFilter(data, size);
  sstfilter::fuzz::AbortIfError(
      sstfilter::fuzz::CheckAgainstRocksDb(filter, size % 16 == 0),
      "RocksDB reader check");
  return 0;
}
