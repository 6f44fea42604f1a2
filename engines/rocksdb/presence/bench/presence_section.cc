#include "engines/rocksdb/presence/bench/presence_section.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "bench/db/lookups.h"
#include "bench/db/rocksdb_build.h"
#include "bench/db/rocksdb_store.h"
#include "bench/db/rocksdb_tree.h"
#include "bench/keys.h"
#include "bench/machine.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/utilities/checkpoint.h"
#include "util/medians.h"

namespace sstfilter {
namespace bench {
namespace {

// The longest an open may take to serve: a rebuild scans every key, a few
// seconds per 10^7 here; far longer means the wrapper is stuck.
constexpr std::chrono::minutes kServingTimeout{10};

// Each query of each way of reading takes its draws (lookups.h) from a range
// of its own, so that no timed query repeats another's key: round r of
// measurement m asks draws m * kDrawsPerMeasurement + r * keys_per_round on.
constexpr uint64_t kDrawsPerMeasurement = 10'000'000'000;
constexpr int kBufferedMeasurement = 0;
constexpr int kDirectMeasurement = 1;
constexpr int kMeasurements = 2;
// The warm-up's draws follow every measurement's, fresh for every round.
constexpr uint64_t kWarmupDrawBase =
    kMeasurements * kPresenceQueries * kDrawsPerMeasurement;
// Before its timed queries, each round asks a tenth as many Gets of absent and
// of present keys, at most this many: they settle what the first lookups
// after an open pay for (table readers' state, the CPU's caches and branch
// history), and are not timed.
constexpr uint64_t kWarmupLookups = 10'000;
constexpr uint64_t kWarmupShare = 10;
// The mixed sweep's draws follow the warm-up's, a range for each mix, fresh
// for every round as the queries' are.
constexpr uint64_t kMixedDrawBase = kWarmupDrawBase + kDrawsPerMeasurement;
// Salts the hash that decides a mixed draw's kind, so that it is independent
// of the one that picks a present draw's key (lookups.cc's).
constexpr uint64_t kMixedKindSalt = 0x9e3779b97f4a7c15ULL;

constexpr std::array<PresenceQuery, kPresenceQueries> kQueries = {
    PresenceQuery::kGetAbsent, PresenceQuery::kGetPresent,
    PresenceQuery::kMultiGetAbsent, PresenceQuery::kMultiGetPresent};

bool IsAbsent(PresenceQuery query) {
  return query == PresenceQuery::kGetAbsent ||
         query == PresenceQuery::kMultiGetAbsent;
}

bool IsBatched(PresenceQuery query) {
  return query == PresenceQuery::kMultiGetAbsent ||
         query == PresenceQuery::kMultiGetPresent;
}

// Whether draw `draw` of the mixed sweep asks a present key (else an absent
// one), with probability percent / 100: a hash of the draw rather than a
// pattern of it, so that no branch predictor learns which Gets find their key.
bool MixedDrawPresent(uint64_t draw, int percent) {
  return Mix64(draw ^ kMixedKindSalt) % 100 < static_cast<uint64_t>(percent);
}

// What a handle answered to a run of queries.
struct QueryTally {
  double seconds = 0;
  uint64_t found = 0;
  uint64_t errors = 0;
  std::string first_error;
  // The keys asked that are present, and those of them found; the rest of the
  // keys are absent. Counted key by key in the mixed sweep; the other queries'
  // keys are all of one kind (OfOneKind).
  uint64_t present = 0;
  uint64_t present_found = 0;

  void Count(const rocksdb::Status& status) {
    if (status.ok()) {
      ++found;
    } else if (!status.IsNotFound()) {
      if (errors++ == 0) first_error = status.ToString();
    }
  }
  // Count, of a key whose kind the caller knows.
  void CountOfKind(const rocksdb::Status& status, bool present_key) {
    Count(status);
    if (present_key) {
      ++present;
      present_found += status.ok() ? 1 : 0;
    }
  }
  // After a run of `count` keys all present or all absent: counts them.
  void OfOneKind(bool present_keys, uint64_t count) {
    present = present_keys ? count : 0;
    present_found = present_keys ? found : 0;
  }
  void Add(const QueryTally& other) {
    seconds += other.seconds;
    found += other.found;
    if (errors == 0) first_error = other.first_error;
    errors += other.errors;
    present += other.present;
    present_found += other.present_found;
  }
};

rocksdb::ReadOptions LookupReadOptions() {
  rocksdb::ReadOptions read;
  read.fill_cache = false;  // every data block a lookup needs is read
  return read;
}

// Plain RocksDB and the wrapper are both asked through rocksdb::DB's virtual
// calls, as an application holding a rocksdb::DB* would.
QueryTally TimeGets(rocksdb::DB* db, QueryMaker make_query, uint64_t first_draw,
                    uint64_t count, uint64_t num_keys) {
  const rocksdb::ReadOptions read = LookupReadOptions();
  rocksdb::ColumnFamilyHandle* const column_family = db->DefaultColumnFamily();
  rocksdb::PinnableSlice value;
  char key[kMaxKeyBytes];
  QueryTally tally;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < count; ++i) {
    const size_t len = make_query(first_draw + i, num_keys, key);
    tally.Count(db->Get(read, column_family, rocksdb::Slice(key, len), &value));
    value.Reset();
  }
  tally.seconds = SecondsSince(start);
  return tally;
}

QueryTally TimeMultiGets(rocksdb::DB* db, QueryMaker make_query,
                         uint64_t first_draw, uint64_t count,
                         uint64_t num_keys) {
  const rocksdb::ReadOptions read = LookupReadOptions();
  rocksdb::ColumnFamilyHandle* const column_family = db->DefaultColumnFamily();
  char keys[kPresenceMultiGetBatch][kMaxKeyBytes];
  std::array<rocksdb::Slice, kPresenceMultiGetBatch> slices;
  std::array<rocksdb::PinnableSlice, kPresenceMultiGetBatch> values;
  std::array<rocksdb::Status, kPresenceMultiGetBatch> statuses;
  QueryTally tally;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t done = 0; done < count;) {
    const size_t batch = static_cast<size_t>(
        std::min<uint64_t>(kPresenceMultiGetBatch, count - done));
    for (size_t j = 0; j < batch; ++j) {
      slices[j] = rocksdb::Slice(
          keys[j], make_query(first_draw + done + j, num_keys, keys[j]));
    }
    db->MultiGet(read, column_family, batch, slices.data(), values.data(),
                 statuses.data(), /*sorted_input=*/false);
    for (size_t j = 0; j < batch; ++j) {
      tally.Count(statuses[j]);
      values[j].Reset();
    }
    done += batch;
  }
  tally.seconds = SecondsSince(start);
  return tally;
}

// Gets of draws from first_draw on, each of a present key or an absent one
// as MixedDrawPresent says, made as Random16Query makes either kind.
QueryTally TimeMixedGets(rocksdb::DB* db, int percent, uint64_t first_draw,
                         uint64_t count, uint64_t num_keys) {
  const QueryMaker absent = Random16Query(LookupKind::kAbsent);
  const QueryMaker present = Random16Query(LookupKind::kPresent);
  const rocksdb::ReadOptions read = LookupReadOptions();
  rocksdb::ColumnFamilyHandle* const column_family = db->DefaultColumnFamily();
  rocksdb::PinnableSlice value;
  char key[kMaxKeyBytes];
  QueryTally tally;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t draw = first_draw; draw < first_draw + count; ++draw) {
    const bool present_key = MixedDrawPresent(draw, percent);
    const size_t len = (present_key ? present : absent)(draw, num_keys, key);
    tally.CountOfKind(
        db->Get(read, column_family, rocksdb::Slice(key, len), &value),
        present_key);
    value.Reset();
  }
  tally.seconds = SecondsSince(start);
  return tally;
}

// Asks `count` queries from first_draw on of both handles, in blocks of
// kPresenceBlockKeys taken in turn (handle (block + first_handle) % 2 first),
// and returns each handle's tally: seconds summed over its blocks.
// time_block(handle, first_draw, keys) times one block of one handle.
template <typename TimeBlock>
std::array<QueryTally, 2> TimeInterleaved(
    const std::array<rocksdb::DB*, 2>& handles, uint64_t first_draw,
    uint64_t count, int first_handle, const TimeBlock& time_block) {
  std::array<QueryTally, 2> tallies;
  for (uint64_t done = 0, block = 0; done < count;
       done += kPresenceBlockKeys, ++block) {
    const uint64_t keys = std::min(kPresenceBlockKeys, count - done);
    for (int turn = 0; turn < 2; ++turn) {
      const size_t h = static_cast<size_t>(
          (static_cast<int>(block % 2) + first_handle + turn) % 2);
      tallies[h].Add(time_block(handles[h], first_draw + done, keys));
    }
  }
  return tallies;
}

// Whether a handle's tally of `count` keys answered every key as its kind
// says: an absent key NotFound, a present key found, and no error.
absl::Status CheckAnswers(const QueryTally& tally, absl::string_view query,
                          const char* who, uint64_t count) {
  if (tally.errors != 0) {
    return absl::InternalError(
        absl::StrFormat("%s %s: %d of %d keys answered with an error, first %s",
                        query, who, tally.errors, count, tally.first_error));
  }
  const uint64_t absent_found = tally.found - tally.present_found;
  if (absent_found != 0) {
    return absl::InternalError(
        absl::StrFormat("%s %s: %d of %d absent keys found", query, who,
                        absent_found, count - tally.present));
  }
  if (tally.present_found != tally.present) {
    return absl::DataLossError(
        absl::StrFormat("%s %s: %d of %d present keys not found", query, who,
                        tally.present - tally.present_found, tally.present));
  }
  return absl::OkStatus();
}

// Removes a database of the section from disk, the wrapper's files too.
void DestroyPresenceDb(const std::string& path) {
  RemovePresenceFilterFiles(path);
  rocksdb::DestroyDB(path, rocksdb::Options()).PermitUncheckedError();
}

absl::StatusOr<std::unique_ptr<rocksdb::DB>> OpenPlain(
    const rocksdb::Options& options, const std::string& path) {
  rocksdb::DB* raw = nullptr;
  absl::Status status =
      FromRocksDb(rocksdb::DB::Open(options, path, &raw), "open");
  if (!status.ok()) return status;
  return std::unique_ptr<rocksdb::DB>(raw);
}

// Open, then WaitUntilServing: until then lookups go through RocksDB.
absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> OpenServing(
    const rocksdb::Options& options, const std::string& path,
    const PresenceFilterOptions& filter_options) {
  absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> db =
      PresenceFilteredDB::Open(options, path, filter_options);
  if (!db.ok()) return db.status();
  absl::Status serving = (*db)->WaitUntilServing(kServingTimeout);
  if (!serving.ok()) return serving;
  return db;
}

absl::Status CloseAndRelease(std::unique_ptr<rocksdb::DB> db) {
  absl::Status status = FromRocksDb(db->Close(), "close");
  db.reset();
  return status;
}

// What writes a fill turn's keys.
enum class FillHandle {
  kRocksDbAlone,
  kWrapper,
  // The wrapper with save_after_background_work = false.
  kWrapperSavingAtClose,
};

// Counts the wrapper's saves and the seconds they take (called on its
// background thread, one save at a time).
class SaveTally : public PresenceFilterListener {
 public:
  void OnSaveBegin() override { start_ = std::chrono::steady_clock::now(); }
  void OnSaveEnd(const absl::Status& /*status*/) override {
    seconds_.store(seconds() + SecondsSince(start_));
    saves_.fetch_add(1);
  }
  uint64_t saves() const { return saves_.load(); }
  double seconds() const { return seconds_.load(); }

 private:
  std::chrono::steady_clock::time_point start_;
  std::atomic<uint64_t> saves_{0};
  std::atomic<double> seconds_{0};
};

// One of the section's databases, built by RocksDB. The wrapper opens it in
// place; RocksDB alone opens a checkpoint of it: the same table files, hard
// links to the same inodes (and so the same pages of the page cache), so that
// both can be open at once and asked in alternating blocks of keys.
class PresenceDb {
 public:
  PresenceDb(RocksDbConfig config, std::unique_ptr<RocksDbTree> tree,
             PresenceResult result, uint64_t direct_cache_bytes)
      : config_(std::move(config)),
        tree_(std::move(tree)),
        direct_cache_bytes_(direct_cache_bytes),
        result_(std::move(result)) {}
  ~PresenceDb() {
    DestroyPresenceDb(plain_path());
    // The tree removes RocksDB's files when it goes; the wrapper's first.
    RemovePresenceFilterFiles(tree_->path());
  }

  const std::string& name() const { return config_.name; }
  // Where the wrapper opens the database.
  const std::string& path() const { return tree_->path(); }
  // Where RocksDB alone opens it: the checkpoint.
  std::string plain_path() const { return tree_->path() + ".plain"; }
  const RocksDbConfig& config() const { return config_; }
  uint64_t direct_cache_bytes() const { return direct_cache_bytes_; }
  PresenceResult& result() { return result_; }
  // Closes the handle the database was built with (the checkpoint is taken
  // from it); every round opens its own.
  absl::Status CloseBuiltHandle() { return tree_->Close(); }

 private:
  const RocksDbConfig config_;
  const std::unique_ptr<RocksDbTree> tree_;
  const uint64_t direct_cache_bytes_;
  PresenceResult result_;
};

// The two handles of a round: RocksDB alone (kPlain) and the wrapper
// (kWrapped), open on the same table files at once.
constexpr size_t kPlain = 0;
constexpr size_t kWrapped = 1;

const char* HandleName(size_t handle) {
  return handle == kWrapped ? "through the wrapper" : "by RocksDB alone";
}

// Checks the tally of `count` keys that handle h answered for `query`, then
// adds the handle's rate to rates and its found keys to *found_plain or
// *found_wrapped.
absl::Status RecordTally(const QueryTally& tally, absl::string_view query,
                         size_t h, uint64_t count, PresencePair* rates,
                         uint64_t* found_plain, uint64_t* found_wrapped) {
  absl::Status checked = CheckAnswers(tally, query, HandleName(h), count);
  if (!checked.ok()) return checked;
  (h == kWrapped ? rates->wrapped : rates->plain)
      .push_back(static_cast<double>(count) / tally.seconds);
  *(h == kWrapped ? found_wrapped : found_plain) += tally.found;
  return absl::OkStatus();
}

class PresenceRun {
 public:
  PresenceRun(const DbShape& shape, const Progress& progress)
      : shape_(shape), progress_(progress) {}

  absl::StatusOr<std::unique_ptr<PresenceDb>> Build(
      RocksDbConfig config, const std::string& table_filter) {
    config.name = table_filter;
    DbResult built;
    absl::StatusOr<std::unique_ptr<RocksDbTree>> tree =
        RocksDbTree::Build({config.name, config.filter, Random16Key,
                            RocksDbLookupOptions(config, shape_),
                            RocksDbLookupOptions(config, shape_)},
                           shape_, progress_, &built);
    if (!tree.ok()) return tree.status();
    const uint64_t cache_bytes = DirectReadCacheBytes((*tree)->Bytes());
    rocksdb::DB* const built_db = (*tree)->db();
    PresenceResult result;
    result.built = std::move(built);
    result.table_filter = table_filter;
    result.expected_keys = shape_.keys;
    result.fill_keys = std::min(shape_.keys, kPresenceFillKeys);
    auto db = std::make_unique<PresenceDb>(config, *std::move(tree),
                                           std::move(result), cache_bytes);
    DestroyPresenceDb(db->plain_path());  // a leftover of a killed run
    rocksdb::Checkpoint* raw_checkpoint = nullptr;
    absl::Status status = FromRocksDb(
        rocksdb::Checkpoint::Create(built_db, &raw_checkpoint), "checkpoint");
    std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw_checkpoint);
    if (status.ok()) {
      status = FromRocksDb(checkpoint->CreateCheckpoint(db->plain_path()),
                           "checkpoint");
    }
    if (status.ok()) status = db->CloseBuiltHandle();
    if (!status.ok()) {
      return absl::Status(status.code(),
                          absl::StrCat(db->name(), ": ", status.message()));
    }
    return db;
  }

  // One round of every measurement of db.
  absl::Status Round(int round, bool direct_reads, PresenceDb* db) {
    absl::Status status = Rebuild(db);
    if (status.ok()) status = BufferedRound(round, db);
    if (status.ok() && direct_reads) status = DirectRound(round, db);
    constexpr std::array<FillHandle, 3> kFills = {
        FillHandle::kRocksDbAlone, FillHandle::kWrapper,
        FillHandle::kWrapperSavingAtClose};
    for (int repeat = 0; repeat < kPresenceFillTurns; ++repeat) {
      for (size_t turn = 0; turn < kFills.size(); ++turn) {
        const FillHandle fill =
            kFills[(turn + static_cast<size_t>(round + repeat)) %
                   kFills.size()];
        if (status.ok()) status = FillTurn(fill, db);
      }
    }
    if (!status.ok()) {
      return absl::Status(status.code(),
                          absl::StrCat(db->name(), ": ", status.message()));
    }
    return status;
  }

 private:
  PresenceFilterOptions FilterOptions(const std::string& name) const {
    PresenceFilterOptions options;
    options.fpp = kPresenceFilterFpp;
    options.expected_keys = shape_.keys;
    const Progress progress = progress_;
    options.progress = [progress, name](const std::string& line) {
      progress(absl::StrCat(name, ": ", line));
    };
    return options;
  }

  // The wrapper's open of a database whose saved filter was deleted: a full
  // scan. It leaves the filter saved for the rounds after it.
  absl::Status Rebuild(PresenceDb* db) {
    RemovePresenceFilterFiles(db->path());
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> wrapped =
        OpenServing(RocksDbLookupOptions(db->config(), shape_), db->path(),
                    FilterOptions(db->name()));
    if (!wrapped.ok()) return wrapped.status();
    db->result().rebuild_seconds.push_back(SecondsSince(start));
    return CloseAndSave(std::move(*wrapped), db);
  }

  absl::Status CloseAndSave(std::unique_ptr<PresenceFilteredDB> wrapped,
                            PresenceDb* db) {
    const auto start = std::chrono::steady_clock::now();
    absl::Status status = wrapped->CloseAndSave();
    db->result().close_and_save_seconds.push_back(SecondsSince(start));
    wrapped.reset();
    return status;
  }

  // After an open with the saved filter: whether it was restored as saved.
  void NoteRestore(PresenceFilteredDB* wrapped, PresenceDb* db) {
    const PresenceFilterStats stats =
        wrapped->Stats(wrapped->DefaultColumnFamily());
    PresenceResult& result = db->result();
    if (stats.last_rebuild == PresenceRebuildReason::kNone) {
      ++result.restored_opens;
    } else {
      result.unrestored.push_back(
          PresenceRebuildReasonName(stats.last_rebuild));
    }
  }

  // Opens RocksDB alone on the checkpoint and the wrapper on the database
  // with `options` (which first alternates with the round), recording each
  // open's seconds in *open_seconds when given; times every query of both,
  // and the mixed sweep into *mixed when given; then closes both, the wrapper
  // with CloseAndSave.
  absl::Status QueryRound(int round, int measurement,
                          const rocksdb::Options& options,
                          PresencePair* open_seconds, PresenceDb* db,
                          PresenceLookups* lookups, PresenceMixedGets* mixed) {
    std::unique_ptr<rocksdb::DB> plain;
    std::unique_ptr<PresenceFilteredDB> filtered;
    const bool plain_first = round % 2 == 0;
    for (const bool wrapped : {!plain_first, plain_first}) {
      const auto start = std::chrono::steady_clock::now();
      if (wrapped) {
        absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> opened =
            OpenServing(options, db->path(), FilterOptions(db->name()));
        if (!opened.ok()) return opened.status();
        filtered = *std::move(opened);
      } else {
        absl::StatusOr<std::unique_ptr<rocksdb::DB>> opened =
            OpenPlain(options, db->plain_path());
        if (!opened.ok()) return opened.status();
        plain = *std::move(opened);
      }
      const double seconds = SecondsSince(start);
      if (open_seconds != nullptr) {
        (wrapped ? open_seconds->wrapped : open_seconds->plain)
            .push_back(seconds);
      }
    }
    NoteRestore(filtered.get(), db);
    const std::array<rocksdb::DB*, 2> handles = {plain.get(), filtered.get()};
    absl::Status status = TimeQueries(round, measurement, handles, lookups);
    if (status.ok() && mixed != nullptr) {
      status = TimeMixedSweep(round, handles, mixed);
    }
    if (measurement == kBufferedMeasurement && status.ok()) {
      const PresenceFilterStats stats =
          filtered->Stats(filtered->DefaultColumnFamily());
      PresenceResult& result = db->result();
      result.memory_bytes = stats.memory_bytes;
      result.sized_for_keys = stats.expected_keys;
      result.approximate_keys = stats.approximate_keys;
      result.expected_fpp = stats.expected_fpp;
    }
    absl::Status closed = CloseAndSave(std::move(filtered), db);
    if (closed.ok()) closed = CloseAndRelease(std::move(plain));
    return status.ok() ? closed : status;
  }

  // Warms both handles up, then times every query of a round, both handles
  // in turns of kPresenceBlockKeys keys, checking every answer: absent keys are
  // never written, present keys always are.
  absl::Status TimeQueries(int round, int measurement,
                           const std::array<rocksdb::DB*, 2>& handles,
                           PresenceLookups* lookups) {
    for (const LookupKind kind : {LookupKind::kAbsent, LookupKind::kPresent}) {
      const size_t query = static_cast<size_t>(
          kind == LookupKind::kAbsent ? PresenceQuery::kGetAbsent
                                      : PresenceQuery::kGetPresent);
      const uint64_t warmup = std::min(
          kWarmupLookups, lookups->keys_per_round[query] / kWarmupShare);
      for (rocksdb::DB* handle : handles) {
        TimeGets(handle, Random16Query(kind), kWarmupDrawBase + warmup_draws_,
                 warmup, shape_.keys);
      }
      warmup_draws_ += warmup;
    }
    for (const PresenceQuery query : kQueries) {
      const size_t q = static_cast<size_t>(query);
      const uint64_t count = lookups->keys_per_round[q];
      const QueryMaker make_query = Random16Query(
          IsAbsent(query) ? LookupKind::kAbsent : LookupKind::kPresent);
      const uint64_t first_draw =
          (static_cast<uint64_t>(measurement) * kPresenceQueries + q) *
              kDrawsPerMeasurement +
          static_cast<uint64_t>(round) * count;
      const bool batched = IsBatched(query);
      std::array<QueryTally, 2> tallies = TimeInterleaved(
          handles, first_draw, count, round % 2,
          [&](rocksdb::DB* db, uint64_t first, uint64_t keys) {
            return batched
                       ? TimeMultiGets(db, make_query, first, keys, shape_.keys)
                       : TimeGets(db, make_query, first, keys, shape_.keys);
          });
      for (const size_t h : {kPlain, kWrapped}) {
        tallies[h].OfOneKind(!IsAbsent(query), count);
        absl::Status recorded =
            RecordTally(tallies[h], PresenceQueryName(query), h, count,
                        &lookups->per_second[q], &lookups->found_plain[q],
                        &lookups->found_wrapped[q]);
        if (!recorded.ok()) return recorded;
      }
    }
    return absl::OkStatus();
  }

  // Times the mixed sweep of a round after TimeQueries (which warmed both
  // handles up): each mix in turn, both handles in turns of
  // kPresenceBlockKeys keys, checking every answer against its key's kind.
  absl::Status TimeMixedSweep(int round,
                              const std::array<rocksdb::DB*, 2>& handles,
                              PresenceMixedGets* mixed) {
    const uint64_t count = mixed->keys_per_round;
    for (size_t m = 0; m < kPresenceMixes; ++m) {
      const int percent = kPresenceMixPercents[m];
      const uint64_t first_draw = kMixedDrawBase + m * kDrawsPerMeasurement +
                                  static_cast<uint64_t>(round) * count;
      const std::array<QueryTally, 2> tallies = TimeInterleaved(
          handles, first_draw, count, round % 2,
          [&](rocksdb::DB* db, uint64_t first, uint64_t keys) {
            return TimeMixedGets(db, percent, first, keys, shape_.keys);
          });
      for (const size_t h : {kPlain, kWrapped}) {
        absl::Status recorded = RecordTally(
            tallies[h], absl::StrFormat("get, %d%% present", percent), h, count,
            &mixed->per_second[m], &mixed->found_plain[m],
            &mixed->found_wrapped[m]);
        if (!recorded.ok()) return recorded;
      }
    }
    return absl::OkStatus();
  }

  absl::Status BufferedRound(int round, PresenceDb* db) {
    PresenceResult& result = db->result();
    return QueryRound(
        round, kBufferedMeasurement, RocksDbLookupOptions(db->config(), shape_),
        &result.open_seconds, db, &result.buffered, &result.mixed);
  }

  absl::Status DirectRound(int round, PresenceDb* db) {
    PresenceResult& result = db->result();
    if (!result.direct.has_value()) {
      // Whether the file system takes O_DIRECT: RocksDB's open says.
      PresenceResult::Direct direct;
      direct.block_cache_bytes = db->direct_cache_bytes();
      direct.lookups.keys_per_round = result.buffered.keys_per_round;
      for (const PresenceQuery query :
           {PresenceQuery::kGetPresent, PresenceQuery::kMultiGetPresent}) {
        uint64_t& keys =
            direct.lookups.keys_per_round[static_cast<size_t>(query)];
        keys = std::min(keys, kPresenceDirectPresentLookups);
      }
      absl::StatusOr<std::unique_ptr<rocksdb::DB>> probe = OpenPlain(
          RocksDbDirectReadOptions(db->config(), shape_,
                                   direct.block_cache_bytes, /*direct=*/true),
          db->plain_path());
      direct.direct = probe.ok();
      if (probe.ok()) {
        absl::Status closed = CloseAndRelease(*std::move(probe));
        if (!closed.ok()) return closed;
      } else {
        direct.refused = std::string(probe.status().message());
        progress_(absl::StrFormat("%s: direct reads refused (%s); buffered",
                                  db->name(), direct.refused));
      }
      result.direct = std::move(direct);
    }
    return QueryRound(round, kDirectMeasurement,
                      RocksDbDirectReadOptions(db->config(), shape_,
                                               result.direct->block_cache_bytes,
                                               result.direct->direct),
                      nullptr, db, &result.direct->lookups, nullptr);
  }

  // Writes the section's fill keys into a fresh database of db's options,
  // by `fill`, and times the writes. (Turns, not blocks: a fill's flushes and
  // compactions run behind its writes, and fresh databases filled at once
  // would each compete with the others'.)
  absl::Status FillTurn(FillHandle fill, PresenceDb* db) {
    const std::string path = absl::StrCat(db->path(), ".fill");
    DestroyPresenceDb(path);
    PresenceResult& result = db->result();
    const rocksdb::Options options = RocksDbLookupOptions(db->config(), shape_);
    SaveTally saves;  // outlives the wrapper, as the listener must
    std::unique_ptr<rocksdb::DB> plain;
    std::unique_ptr<PresenceFilteredDB> filtered;
    if (fill == FillHandle::kRocksDbAlone) {
      absl::StatusOr<std::unique_ptr<rocksdb::DB>> opened =
          OpenPlain(options, path);
      if (!opened.ok()) return opened.status();
      plain = *std::move(opened);
    } else {
      PresenceFilterOptions filter_options =
          FilterOptions(db->name() + " fill");
      filter_options.listener = &saves;
      filter_options.save_after_background_work = fill == FillHandle::kWrapper;
      absl::StatusOr<std::unique_ptr<PresenceFilteredDB>> opened =
          OpenServing(options, path, filter_options);
      if (!opened.ok()) return opened.status();
      filtered = *std::move(opened);
    }
    rocksdb::DB* handle = plain != nullptr
                              ? plain.get()
                              : static_cast<rocksdb::DB*>(filtered.get());
    const auto start = std::chrono::steady_clock::now();
    absl::Status status = WriteRocksDbKeys(
        handle, Random16Key, 0, result.fill_keys, shape_.value_bytes);
    const double keys_per_second =
        static_cast<double>(result.fill_keys) / SecondsSince(start);
    const double stall_seconds =
        static_cast<double>(
            options.statistics->getTickerCount(rocksdb::STALL_MICROS)) /
        1e6;
    if (status.ok()) {
      switch (fill) {
        case FillHandle::kRocksDbAlone:
          result.fill_keys_per_second.plain.push_back(keys_per_second);
          result.fill_without_saves.plain.push_back(keys_per_second);
          result.fill_stall_seconds.plain.push_back(stall_seconds);
          break;
        case FillHandle::kWrapper:
          result.fill_keys_per_second.wrapped.push_back(keys_per_second);
          result.fill_stall_seconds.wrapped.push_back(stall_seconds);
          // The saves that ended while the writes ran (one may be under
          // way).
          result.fill_saves.push_back(static_cast<double>(saves.saves()));
          result.fill_save_seconds.push_back(saves.seconds());
          break;
        case FillHandle::kWrapperSavingAtClose:
          result.fill_without_saves.wrapped.push_back(keys_per_second);
          break;
      }
    }
    // Closed without a save: the database is removed.
    absl::Status closed = plain != nullptr
                              ? FromRocksDb(plain->Close(), "close")
                              : FromRocksDb(filtered->Close(), "close");
    filtered.reset();
    plain.reset();
    DestroyPresenceDb(path);
    return status.ok() ? closed : status;
  }

  const DbShape shape_;
  const Progress progress_;
  uint64_t warmup_draws_ = 0;
};

const RocksDbConfig* FindConfig(const std::vector<RocksDbConfig>& configs,
                                const std::string& name) {
  for (const RocksDbConfig& config : configs) {
    if (config.name == name) return &config;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> PresenceConfigNames() {
  return {kRocksDbBloomConfig, kHybridConfig};
}

const char* PresenceQueryName(PresenceQuery query) {
  switch (query) {
    case PresenceQuery::kGetAbsent:
      return "get_absent";
    case PresenceQuery::kGetPresent:
      return "get_present";
    case PresenceQuery::kMultiGetAbsent:
      return "multiget_absent";
    case PresenceQuery::kMultiGetPresent:
      return "multiget_present";
  }
  return "?";
}

double PresencePair::PlainMedian() const { return LowerMedian(plain); }
double PresencePair::WrappedMedian() const { return LowerMedian(wrapped); }

double PresencePair::MedianRatio() const {
  return MedianOfRatios(wrapped, plain);
}

double PresencePair::MedianDifference() const {
  std::vector<double> differences;
  for (size_t i = 0; i < plain.size() && i < wrapped.size(); ++i) {
    differences.push_back(wrapped[i] - plain[i]);
  }
  return LowerMedian(differences);
}

absl::StatusOr<std::vector<PresenceResult>> RunPresenceSection(
    const DbConfigs& configs, const ConfigWanted& wants, const DbShape& shape,
    bool direct_reads, const Progress& progress) {
  const bool want_bloom = wants(kRocksDbBloomConfig);
  const bool want_hybrid = wants(kHybridConfig);
  if (!want_bloom && !want_hybrid) return std::vector<PresenceResult>();
  const RocksDbConfig* bloom = FindConfig(configs.rocksdb, kRocksDbBloomConfig);
  if (bloom == nullptr) {
    return absl::InternalError(
        absl::StrCat("presence: no ", kRocksDbBloomConfig, " policy"));
  }

  PresenceRun run(shape, progress);
  std::vector<std::unique_ptr<PresenceDb>> dbs;
  // The Bloom database is built first: its tree sizes the hybrid policy.
  absl::StatusOr<std::unique_ptr<PresenceDb>> bloom_db =
      run.Build(*bloom, kRocksDbBloomConfig);
  if (!bloom_db.ok()) return bloom_db.status();
  if (want_hybrid) {
    const std::vector<SizedRocksDbConfig> sized = SizedRocksDbConfigs();
    const auto hybrid =
        std::find_if(sized.begin(), sized.end(),
                     [](const auto& s) { return s.name == kHybridConfig; });
    if (hybrid == sized.end()) {
      return absl::InternalError(
          absl::StrCat("presence: no ", kHybridConfig, " policy"));
    }
    absl::StatusOr<RocksDbConfig> config =
        hybrid->make((*bloom_db)->result().built, shape);
    if (!config.ok()) return config.status();
    absl::StatusOr<std::unique_ptr<PresenceDb>> hybrid_db =
        run.Build(*std::move(config), kHybridConfig);
    if (!hybrid_db.ok()) return hybrid_db.status();
    if (want_bloom) dbs.push_back(*std::move(bloom_db));
    dbs.push_back(*std::move(hybrid_db));
  } else {
    dbs.push_back(*std::move(bloom_db));
  }
  bloom_db = absl::StatusOr<std::unique_ptr<PresenceDb>>(nullptr);

  for (const auto& db : dbs) {
    PresenceResult& result = db->result();
    result.buffered.keys_per_round.fill(shape.lookups);
    result.mixed.keys_per_round =
        std::max<uint64_t>(1, shape.lookups / kPresenceMixedShare);
  }
  const std::string load_at_start = LoadAverages();
  for (int round = 0; round < shape.reps; ++round) {
    progress(
        absl::StrFormat("presence: round %d of %d", round + 1, shape.reps));
    for (const auto& db : dbs) {
      absl::Status status = run.Round(round, direct_reads, db.get());
      if (!status.ok()) return status;
    }
  }
  const std::string load_at_end = LoadAverages();
  progress(
      absl::StrFormat("presence: load averages %s at the first round, %s "
                      "after the last",
                      load_at_start, load_at_end));
  std::vector<PresenceResult> results;
  for (const auto& db : dbs) {
    results.push_back(db->result());
    results.back().load_at_start = load_at_start;
    results.back().load_at_end = load_at_end;
  }
  return results;  // closing dbs removes every database
}

}  // namespace bench
}  // namespace sstfilter
