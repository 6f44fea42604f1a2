#include "bench/db/range_section.h"

#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/db/db_configs.h"
#include "bench/db/lookups.h"
#include "bench/db/no_match_range_collector.h"
#include "bench/db/rocksdb_tree.h"
#include "bench/keys.h"
#include "bench/turns.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "engines/rocksdb/rocksdb_range_filter.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/iterator.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "table/range_filter_key.h"
#include "util/key_shapes.h"
#include "util/mix64.h"

namespace sstfilter {
namespace bench {
namespace {

using key_shapes::DrawEmptyRange;
using key_shapes::DrawKeyNumbers;
using key_shapes::KeyNumber;
using key_shapes::KeyShape;
using key_shapes::KeyShapes;
using key_shapes::NumberDraws;
using key_shapes::NumberRange;

// Present keys scanned for before any timing: each scan must find its key.
constexpr uint64_t kCheckedPresentKeys = 2'000;
// The longest the wrapper's first rebuild may take: a scan of every key, a
// few seconds per 10^7 here.
constexpr std::chrono::minutes kFrontServingTimeout{10};
// Seeds of the key numbers and of each kind of query: any distinct constants.
constexpr uint64_t kKeySeed = 0x6a09e667f3bcc909ULL;
constexpr uint64_t kCheckSalt = 0xbb67ae8584caa73bULL;
constexpr uint64_t kCorrelatedSalt = 0x3c6ef372fe94f82bULL;
constexpr uint64_t kUniformSalt = 0xa54ff53a5f1d36f1ULL;
constexpr uint64_t kPresentSalt = 0x510e527fade682d1ULL;

enum class ScanFilter { kNone, kPrefixBloom, kRange, kKeyedRange };

struct ScanConfig {
  std::string name;
  ScanFilter filter;
  std::string front = kRocksDbAlone;
};

// Each database of a shape, in the order they are built and asked: the
// prefix Bloom configuration twice, alone and behind the wrapper.
const std::vector<ScanConfig>& ScanConfigs() {
  static const auto* const configs = new std::vector<ScanConfig>{
      {kNoFilterConfig, ScanFilter::kNone},
      {kRocksDbBloomConfig, ScanFilter::kPrefixBloom},
      {kRocksDbBloomConfig, ScanFilter::kPrefixBloom, kPresenceFront},
      {absl::StrCat("grafite:", kRangeFilterBitsPerKey), ScanFilter::kRange},
      {absl::StrCat("grafite:", kRangeFilterBitsPerKey, ":codes=table"),
       ScanFilter::kKeyedRange},
  };
  return *configs;
}

bool IsRangeFilter(ScanFilter filter) {
  return filter == ScanFilter::kRange || filter == ScanFilter::kKeyedRange;
}

// Scans drawn before any timing, by draw number from 0: drawing one (a
// search of the key numbers, two keys formatted) costs about what a whole
// database filter's answer does, so the timed loop only copies them. A draw
// past the cache (the warm-up's) is made when asked.
struct ScanCache {
  std::string bytes;           // the encoded scans, one after another
  std::vector<uint64_t> ends;  // where each ends in bytes

  size_t Copy(uint64_t draw, char* buf) const {
    const uint64_t begin = draw == 0 ? 0 : ends[draw - 1];
    std::memcpy(buf, bytes.data() + begin, ends[draw] - begin);
    return ends[draw] - begin;
  }
};

// The key shape whose databases are built and scanned, its keys' numbers,
// sorted, and its scans: KeyMaker and QueryMaker are plain functions, so
// they read it here.
struct ActiveShape {
  const KeyShape* shape = nullptr;
  std::vector<KeyNumber> numbers;
  ScanCache correlated, uniform, present;
};

ActiveShape& Active() {
  static auto* const active = new ActiveShape;
  return *active;
}

size_t WriteKey(const std::string& key, char* buf) {
  std::memcpy(buf, key.data(), key.size());
  return key.size();
}

size_t ShapeKey(uint64_t index, char* buf) {
  return WriteKey(Active().shape->key(Active().numbers[index]), buf);
}

// A scan travels through the lookup loop as one string: its lower bound's
// length (one byte), the lower bound, then the exclusive upper bound.
size_t EncodeScan(KeyNumber lo, KeyNumber upper, char* buf) {
  const std::string lower = Active().shape->key(lo);
  buf[0] = static_cast<char>(lower.size());
  const size_t n = 1 + WriteKey(lower, buf + 1);
  return n + WriteKey(Active().shape->key(upper), buf + n);
}

struct ScanBounds {
  absl::string_view lower, upper;
};

ScanBounds DecodeScan(absl::string_view scan) {
  const size_t lower = static_cast<uint8_t>(scan[0]);
  return {scan.substr(1, lower), scan.substr(1 + lower)};
}

// Scans of kScanWidth possible keys that hold none, just after a key or
// anywhere; each draw its own range.
template <bool kCorrelated>
size_t DrawEmptyScan(uint64_t draw, char* buf) {
  NumberDraws draws(
      Mix64(draw ^ (kCorrelated ? kCorrelatedSalt : kUniformSalt)));
  const NumberRange range = DrawEmptyRange(*Active().shape, Active().numbers,
                                           kScanWidth, kCorrelated, &draws);
  return EncodeScan(range.lo, range.hi + 1, buf);
}

// Scans of kScanWidth possible keys from a present key.
size_t DrawPresentScan(uint64_t draw, char* buf) {
  const std::vector<KeyNumber>& numbers = Active().numbers;
  const KeyNumber lo = numbers[Mix64(draw ^ kPresentSalt) % numbers.size()];
  return EncodeScan(lo, lo + kScanWidth, buf);
}

size_t CachedOrDrawn(const ScanCache& cache,
                     size_t (*draw_scan)(uint64_t, char*), uint64_t draw,
                     char* buf) {
  return draw < cache.ends.size() ? cache.Copy(draw, buf)
                                  : draw_scan(draw, buf);
}

template <bool kCorrelated>
size_t EmptyScan(uint64_t draw, uint64_t /*num_keys*/, char* buf) {
  return CachedOrDrawn(kCorrelated ? Active().correlated : Active().uniform,
                       DrawEmptyScan<kCorrelated>, draw, buf);
}

size_t PresentScan(uint64_t draw, uint64_t /*num_keys*/, char* buf) {
  return CachedOrDrawn(Active().present, DrawPresentScan, draw, buf);
}

// Fills the caches with the draws the timed repetitions ask: repetition r
// asks draws r * lookups on (lookups.h TimeRep).
void DrawScans(const DbShape& shape) {
  const uint64_t count = static_cast<uint64_t>(shape.reps) * shape.lookups;
  const auto fill = [count](ScanCache* cache,
                            size_t (*draw_scan)(uint64_t, char*)) {
    cache->bytes.clear();
    cache->ends.clear();
    char buf[kMaxKeyBytes];
    for (uint64_t draw = 0; draw < count; ++draw) {
      cache->bytes.append(buf, draw_scan(draw, buf));
      cache->ends.push_back(cache->bytes.size());
    }
  };
  fill(&Active().correlated, DrawEmptyScan<true>);
  fill(&Active().uniform, DrawEmptyScan<false>);
  fill(&Active().present, DrawPresentScan);
}

// RocksDB's prefix of a key shape's key: the key less its last n bytes, the
// bytes a range at the keys' finest position covers. A valid prefix extractor
// over a shape's keys: keys of one prefix have one length and sit together in
// order (key_shapes.h).
class DropFinestBytes final : public rocksdb::SliceTransform {
 public:
  explicit DropFinestBytes(size_t n)
      : n_(n), name_(absl::StrCat("sstfilter.bench.DropLast", n)) {}
  const char* Name() const override { return name_.c_str(); }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    return rocksdb::Slice(key.data(), key.size() - n_);
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return key.size() > n_;
  }

 private:
  const size_t n_;
  const std::string name_;
};

absl::StatusOr<rocksdb::Options> MakeOptions(ScanFilter filter,
                                             const KeyShape& key_shape,
                                             bool inject_false_negative,
                                             const DbShape& shape) {
  rocksdb::BlockBasedTableOptions table;
  if (filter == ScanFilter::kPrefixBloom) {
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(kDbBitsPerKey));
    table.whole_key_filtering = false;
  }
  rocksdb::Options options =
      RocksDbTreeOptions(table, shape.rocksdb_table_bytes);
  if (filter == ScanFilter::kPrefixBloom) {
    options.prefix_extractor =
        std::make_shared<DropFinestBytes>(key_shape.finest_bytes);
  }
  if (IsRangeFilter(filter)) {
    absl::StatusOr<std::shared_ptr<rocksdb::TablePropertiesCollectorFactory>>
        collector = NewRangeFilterCollectorFactory(
            FilterOptions::BitsPerKey(kRangeFilterBitsPerKey),
            filter == ScanFilter::kKeyedRange ? RangeKeyCoding::kPerTable
                                              : RangeKeyCoding::kFirst8Bytes);
    if (!collector.ok()) return collector.status();
    options.table_properties_collector_factories.push_back(
        inject_false_negative ? NewNoMatchRangeCollectorFactory(*collector)
                              : *collector);
  }
  return options;
}

std::string FilterDescription(ScanFilter filter, const KeyShape& key_shape,
                              bool inject_false_negative) {
  switch (filter) {
    case ScanFilter::kNone:
      return "no filter";
    case ScanFilter::kPrefixBloom:
      return absl::StrFormat(
          "rocksdb::NewBloomFilterPolicy(%g) over each key less its last %d "
          "bytes (prefix_extractor), read with auto_prefix_mode",
          kDbBitsPerKey, key_shape.finest_bytes);
    case ScanFilter::kRange:
    case ScanFilter::kKeyedRange:
      return absl::StrCat(
          "sstfilter range filter, ", kRangeFilterBitsPerKey, " bits/key, ",
          filter == ScanFilter::kKeyedRange ? "keys coded per table"
                                            : "keys' first 8 bytes",
          inject_false_negative ? " (of no keys: --inject_false_negative)"
                                : "");
  }
  return "";
}

class RangeScanDb final : public SectionDb {
 public:
  RangeScanDb(std::unique_ptr<RocksDbTree> tree, ScanFilter filter)
      : SectionDb(std::move(tree)), filter_(filter) {}
  ~RangeScanDb() override {
    if (front_ == nullptr) return;
    front_.reset();
    RemovePresenceFilterFiles(tree().path());
  }

  // Reads through PresenceFilteredDB from now on: closes the tree's handle
  // and opens the wrapper on its files, with its options (and so its
  // Statistics), once its filter serves.
  absl::Status OpenFront() {
    absl::Status status = tree().Close();
    if (!status.ok()) return status;
    PresenceFilterOptions filter_options;
    filter_options.fpp = kPresenceRangeFpp;
    filter_options.expected_keys = result.keys;
    filter_options.filter_range_seeks = true;
    absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> front =
        PresenceFilteredDB::Open(tree().options(), tree().path(),
                                 filter_options);
    if (!front.ok()) return front.status();
    status = (*front)->WaitUntilServing(kFrontServingTimeout);
    if (!status.ok()) return status;
    front_ = *std::move(front);
    return absl::OkStatus();
  }
  // The wrapper's filter bits per key.
  double FrontBitsPerKey() const {
    const PresenceFilterStats stats =
        front_->Stats(front_->DefaultColumnFamily());
    return 8.0 * static_cast<double>(stats.memory_bytes) /
           static_cast<double>(result.keys);
  }

  // Scans the encoded range; found when it returns a key.
  bool Lookup(absl::string_view scan) override {
    const ScanBounds bounds = DecodeScan(scan);
    return !ScanFrom(bounds.lower, bounds.upper).empty();
  }

  // The first key of [lower, upper), or "" when it holds none. Only the
  // range-filtered scans build a RangeScan: its copies of the bounds and its
  // table_filter are part of the filter's cost.
  std::string ScanFrom(absl::string_view lower, absl::string_view upper) {
    rocksdb::ReadOptions read;
    read.fill_cache = false;
    if (IsRangeFilter(filter_)) {
      const RangeScan scan(std::string(lower), std::string(upper), read);
      return First(scan.options());
    }
    const rocksdb::Slice lower_slice(lower.data(), lower.size());
    const rocksdb::Slice upper_slice(upper.data(), upper.size());
    read.iterate_lower_bound = &lower_slice;
    read.iterate_upper_bound = &upper_slice;
    read.auto_prefix_mode = filter_ == ScanFilter::kPrefixBloom;
    return First(read);
  }

 private:
  // The first key the options' bounded scan returns, or "".
  std::string First(const rocksdb::ReadOptions& read) {
    rocksdb::DB* db = front_ != nullptr ? front_.get() : tree().db();
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(read));
    it->Seek(*read.iterate_lower_bound);
    if (!it->Valid()) {
      if (!it->status().ok()) CountError();
      return "";
    }
    return it->key().ToString();
  }

  const ScanFilter filter_;
  std::unique_ptr<PresenceFilteredDB> front_;  // null: RocksDB alone
};

// Scans around a sample of present keys, each starting up to kScanWidth - 1
// possible keys before its key: each must return its key or one before it.
absl::Status CheckPresentKeys(RangeScanDb* db) {
  const std::vector<KeyNumber>& numbers = Active().numbers;
  for (uint64_t i = 0; i < kCheckedPresentKeys; ++i) {
    const uint64_t draw = Mix64(i ^ kCheckSalt);
    const KeyNumber number = numbers[draw % numbers.size()];
    const KeyNumber back =
        std::min<KeyNumber>(number, (draw >> 32) % kScanWidth);
    const std::string want = Active().shape->key(number);
    const std::string found =
        db->ScanFrom(Active().shape->key(number - back),
                     Active().shape->key(number - back + kScanWidth));
    if (found.empty() || found > want) {
      return absl::InternalError(
          absl::StrFormat("%s: a scan from present key %d missed it (%s keys)",
                          db->result.config, i, Active().shape->name));
    }
  }
  return absl::OkStatus();
}

// Times shape.reps repetitions of shape.lookups scans from present keys
// against each database in turn; every scan must find its key.
absl::StatusOr<std::vector<LookupFigures>> MeasureNonEmptyScans(
    const DbShape& shape, const std::vector<SectionDb*>& dbs,
    const Progress& progress) {
  for (SectionDb* db : dbs) WarmUp(PresentScan, shape, db);
  std::vector<std::vector<RepFigures>> reps(dbs.size());
  for (int rep = 0; rep < shape.reps; ++rep) {
    progress(absl::StrFormat("non-empty scans, repetition %d of %d", rep + 1,
                             shape.reps));
    for (size_t turn = 0; turn < dbs.size(); ++turn) {
      const size_t i = TurnOf(rep, turn, dbs.size());
      reps[i].push_back(TimeRep(PresentScan, rep, shape, dbs[i]));
    }
  }
  std::vector<LookupFigures> figures;
  for (size_t i = 0; i < dbs.size(); ++i) {
    figures.push_back(Summarize(reps[i], shape.lookups));
    if (figures.back().found != figures.back().lookups) {
      return absl::InternalError(absl::StrFormat(
          "%s: %d of %d scans from present keys found nothing",
          dbs[i]->result.config, figures.back().lookups - figures.back().found,
          figures.back().lookups));
    }
  }
  return figures;
}

// Bits per key of the range filters every table holds.
double RangeBitsPerKey(const RocksDbTree& tree, uint64_t keys) {
  rocksdb::TablePropertiesCollection tables;
  if (!tree.db()->GetPropertiesOfAllTables(&tables).ok()) return 0;
  uint64_t bytes = 0;
  for (const auto& [file, properties] : tables) {
    for (const auto& [name, value] : properties->user_collected_properties) {
      if (!RangeFilterFormatName(name).empty()) bytes += value.size();
    }
  }
  return 8.0 * static_cast<double>(bytes) / static_cast<double>(keys);
}

// The section for one key shape: its databases are built, measured and
// removed before the next shape's.
absl::Status RunShape(size_t shape_index,
                      const std::vector<std::string>& chosen,
                      bool inject_false_negative, const DbShape& shape,
                      const Progress& progress,
                      std::vector<RangeResult>* results) {
  const KeyShape& key_shape = KeyShapes()[shape_index];
  NumberDraws key_draws(kKeySeed + shape_index);
  Active().shape = &key_shape;
  Active().numbers = DrawKeyNumbers(key_shape, shape.keys, &key_draws);
  DrawScans(shape);
  std::vector<std::unique_ptr<RangeScanDb>> dbs;
  std::vector<SectionDb*> probed;
  std::vector<RangeResult> shape_results;
  for (const ScanConfig& config : ScanConfigs()) {
    if (std::find(chosen.begin(), chosen.end(), config.name) == chosen.end()) {
      continue;
    }
    absl::StatusOr<rocksdb::Options> build =
        MakeOptions(config.filter, key_shape, inject_false_negative, shape);
    absl::StatusOr<rocksdb::Options> reopen =
        MakeOptions(config.filter, key_shape, inject_false_negative, shape);
    if (!build.ok()) return build.status();
    if (!reopen.ok()) return reopen.status();
    RangeResult result;
    result.shape = key_shape.name;
    result.front = config.front;
    absl::StatusOr<std::unique_ptr<RocksDbTree>> tree = RocksDbTree::Build(
        {config.name,
         FilterDescription(config.filter, key_shape, inject_false_negative),
         ShapeKey, *build, *reopen, /*one_level=*/true,
         absl::StrCat("shape", shape_index,
                      config.front == kRocksDbAlone ? "" : "-presence")},
        shape, progress, &result.built);
    if (!tree.ok()) return tree.status();
    result.range_bits_per_key = RangeBitsPerKey(**tree, shape.keys);
    dbs.push_back(
        std::make_unique<RangeScanDb>(*std::move(tree), config.filter));
    dbs.back()->result = result.built;
    if (config.front == kPresenceFront) {
      progress(absl::StrCat(key_shape.name, ": ", config.name, " behind ",
                            kPresenceFront,
                            ": opening, rebuilding its filter"));
      if (absl::Status status = dbs.back()->OpenFront(); !status.ok()) {
        return absl::Status(
            status.code(), absl::StrCat(config.name, " behind ", kPresenceFront,
                                        ": ", status.message()));
      }
      result.range_bits_per_key = dbs.back()->FrontBitsPerKey();
    }
    if (absl::Status status = CheckPresentKeys(dbs.back().get());
        !status.ok()) {
      return status;
    }
    probed.push_back(dbs.back().get());
    shape_results.push_back(std::move(result));
  }
  if (probed.empty()) return absl::OkStatus();
  const auto shape_progress = [&](const std::string& line) {
    progress(absl::StrCat(key_shape.name, ": ", line));
  };
  absl::StatusOr<std::vector<ProbeFigures>> correlated =
      MeasureAbsentProbes(EmptyScan<true>, {}, shape, probed, shape_progress);
  if (!correlated.ok()) return correlated.status();
  absl::StatusOr<std::vector<ProbeFigures>> uniform =
      MeasureAbsentProbes(EmptyScan<false>, {}, shape, probed, shape_progress);
  if (!uniform.ok()) return uniform.status();
  absl::StatusOr<std::vector<LookupFigures>> nonempty =
      MeasureNonEmptyScans(shape, probed, shape_progress);
  if (!nonempty.ok()) return nonempty.status();
  for (size_t i = 0; i < shape_results.size(); ++i) {
    shape_results[i].correlated = (*correlated)[i];
    shape_results[i].uniform = (*uniform)[i];
    shape_results[i].nonempty = (*nonempty)[i];
    results->push_back(std::move(shape_results[i]));
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<std::string> RangeConfigNames() {
  std::vector<std::string> names;
  for (const ScanConfig& config : ScanConfigs()) {
    if (config.front == kRocksDbAlone) names.push_back(config.name);
  }
  return names;
}

absl::StatusOr<std::vector<RangeResult>> RunRangeSection(
    const std::vector<std::string>& configs, bool inject_false_negative,
    const DbShape& shape, const Progress& progress) {
  std::vector<RangeResult> results;
  for (size_t i = 0; i < KeyShapes().size(); ++i) {
    absl::Status status =
        RunShape(i, configs, inject_false_negative, shape, progress, &results);
    if (!status.ok()) return status;
  }
  return results;
}

}  // namespace bench
}  // namespace sstfilter
