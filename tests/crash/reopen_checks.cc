#include "tests/crash/reopen_checks.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "rocksdb/statistics.h"
#include "tests/crash/rocksdb_lookups.h"

namespace sstfilter {
namespace test {
namespace {

// The absent probes are never-written keys from this index on, apart from
// those CheckDatabase looks up.
constexpr uint64_t kFirstAbsentProbe = uint64_t{1} << 20;

absl::Status WithContext(const absl::Status& s, const std::string& context) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(context, ": ", s.message()));
}

// CheckDatabase through Get, then through MultiGet (all the keys it looks
// up, fetched in batches first), and for a presence-filtered database
// through bounded seeks.
absl::Status CheckThroughGetAndMultiGet(CrashDb* db, const Model& model,
                                        absl::Span<const Op> maybe,
                                        size_t never_written_keys,
                                        const std::string& when) {
  absl::Status s =
      CheckDatabase(model, maybe, db->AsLookup(), never_written_keys);
  if (!s.ok()) return WithContext(s, absl::StrCat("Get ", when));
  const std::vector<std::string> keys = CheckedKeys(never_written_keys);
  absl::StatusOr<std::vector<std::optional<std::string>>> values =
      db->MultiGet(keys);
  if (!values.ok()) {
    return WithContext(values.status(), absl::StrCat("MultiGet ", when));
  }
  std::map<std::string, std::optional<std::string>> fetched;
  for (size_t i = 0; i < keys.size(); ++i) fetched[keys[i]] = (*values)[i];
  const Lookup batched = [&fetched](const std::string& key)
      -> absl::StatusOr<std::optional<std::string>> {
    auto it = fetched.find(key);
    if (it == fetched.end()) {
      return absl::InternalError(absl::StrCat(key, " was not fetched"));
    }
    return it->second;
  };
  s = WithContext(CheckDatabase(model, maybe, batched, never_written_keys),
                  absl::StrCat("MultiGet ", when));
  PresenceFilteredDB* const presence = db->presence_filtered_db();
  if (!s.ok() || presence == nullptr) return s;
  // Range scans of one possible key each, both ways, which the filter's
  // range items answer.
  for (const bool backward : {false, true}) {
    const Lookup seek = [presence, backward](const std::string& key) {
      return RocksDbSeek(presence, key, backward);
    };
    s = WithContext(CheckDatabase(model, maybe, seek, never_written_keys),
                    absl::StrCat(backward ? "SeekForPrev " : "Seek ", when));
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

// Point lookups that have reached RocksDB: each Get, and each key of a
// MultiGet.
uint64_t LookupsReachingRocksDb(const rocksdb::Statistics& statistics) {
  return statistics.getTickerCount(rocksdb::NUMBER_KEYS_READ) +
         statistics.getTickerCount(rocksdb::NUMBER_MULTIGET_KEYS_READ);
}

// Seeks that have reached RocksDB.
uint64_t SeeksReachingRocksDb(const rocksdb::Statistics& statistics) {
  return statistics.getTickerCount(rocksdb::NUMBER_DB_SEEK);
}

// Seeks held to one key each (RocksDbSeek) in db, expecting none found;
// returns how many reached RocksDB.
absl::StatusOr<uint64_t> AbsentSeeksReaching(
    rocksdb::DB* db, const rocksdb::Statistics& statistics,
    const std::vector<std::string>& keys) {
  const uint64_t before = SeeksReachingRocksDb(statistics);
  for (const std::string& key : keys) {
    absl::StatusOr<std::optional<std::string>> got =
        RocksDbSeek(db, key, /*backward=*/false);
    if (!got.ok()) return got.status();
    if (got->has_value()) {
      return absl::InternalError(
          absl::StrCat("a seek found never-written key ", key));
    }
  }
  return SeeksReachingRocksDb(statistics) - before;
}

// Looks keys up in db (one Get each, or batched), expecting each NotFound;
// returns how many of the lookups reached RocksDB.
absl::StatusOr<uint64_t> AbsentLookupsReaching(
    rocksdb::DB* db, const rocksdb::Statistics& statistics,
    const std::vector<std::string>& keys, bool batched) {
  const uint64_t before = LookupsReachingRocksDb(statistics);
  std::vector<std::optional<std::string>> values;
  if (batched) {
    absl::StatusOr<std::vector<std::optional<std::string>>> got =
        RocksDbMultiGet(db, keys);
    if (!got.ok()) return got.status();
    values = *std::move(got);
  } else {
    for (const std::string& key : keys) {
      absl::StatusOr<std::optional<std::string>> got = RocksDbGet(db, key);
      if (!got.ok()) return got.status();
      values.push_back(*std::move(got));
    }
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    if (values[i].has_value()) {
      return absl::InternalError(
          absl::StrCat("never-written key ", keys[i], " found"));
    }
  }
  return LookupsReachingRocksDb(statistics) - before;
}

// With Get and with MultiGet: the same absent keys through the base
// database all reach RocksDB (the count works), and through the filter no
// more than half of them do.
absl::Status CheckAbsentKeysRuledOut(PresenceFilteredDB* presence,
                                     FilterUse* use) {
  const std::shared_ptr<rocksdb::Statistics> statistics =
      presence->GetDBOptions().statistics;
  if (statistics == nullptr) {
    return absl::FailedPreconditionError("RocksDB statistics are off");
  }
  std::vector<std::string> keys;
  for (uint64_t j = 0; j < kAbsentProbes; ++j) {
    keys.push_back(NeverWrittenKey(kFirstAbsentProbe + j));
  }
  for (const bool batched : {false, true}) {
    const char* const how = batched ? "MultiGet" : "Get";
    absl::StatusOr<uint64_t> base_reached = AbsentLookupsReaching(
        presence->GetBaseDB(), *statistics, keys, batched);
    if (!base_reached.ok()) return base_reached.status();
    if (*base_reached != keys.size()) {
      return absl::InternalError(
          absl::StrCat("RocksDB counted ", *base_reached, " of ", keys.size(),
                       " ", how, " lookups through the base database"));
    }
    absl::StatusOr<uint64_t> reached =
        AbsentLookupsReaching(presence, *statistics, keys, batched);
    if (!reached.ok()) return reached.status();
    if (2 * *reached > keys.size()) {
      return absl::InternalError(absl::StrCat(
          *reached, " of ", keys.size(), " ", how,
          " lookups of never-written keys reached RocksDB through a serving "
          "filter"));
    }
    if (use != nullptr) {
      use->absent_lookups += keys.size();
      use->reached_rocksdb += *reached;
    }
  }
  // And seeks of one key each, which the range items answer.
  absl::StatusOr<uint64_t> base_seeks =
      AbsentSeeksReaching(presence->GetBaseDB(), *statistics, keys);
  if (!base_seeks.ok()) return base_seeks.status();
  if (*base_seeks != keys.size()) {
    return absl::InternalError(
        absl::StrCat("RocksDB counted ", *base_seeks, " of ", keys.size(),
                     " seeks through the base database"));
  }
  absl::StatusOr<uint64_t> seeks =
      AbsentSeeksReaching(presence, *statistics, keys);
  if (!seeks.ok()) return seeks.status();
  if (2 * *seeks > keys.size()) {
    return absl::InternalError(
        absl::StrCat(*seeks, " of ", keys.size(),
                     " seeks of never-written keys reached RocksDB through a "
                     "serving filter"));
  }
  if (use != nullptr) {
    use->absent_seeks += keys.size();
    use->seeks_reached_rocksdb += *seeks;
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckReopened(CrashDb* db, const Model& model,
                           absl::Span<const Op> maybe,
                           size_t never_written_keys, FilterUse* use) {
  PresenceFilteredDB* const presence = db->presence_filtered_db();
  if (presence == nullptr) {
    return CheckDatabase(model, maybe, db->AsLookup(), never_written_keys);
  }
  absl::Status s = CheckThroughGetAndMultiGet(
      db, model, maybe, never_written_keys, "at once after the open");
  if (!s.ok()) return s;
  s = presence->WaitUntilServing(kServingTimeout);
  if (!s.ok()) return WithContext(s, "WaitUntilServing");
  const PresenceFilterStats stats =
      presence->Stats(presence->DefaultColumnFamily());
  if (stats.state != PresenceFilterState::kServing) {
    return absl::InternalError(
        absl::StrCat("after WaitUntilServing the filter is not serving (state ",
                     static_cast<int>(stats.state), ", last error ",
                     stats.last_error.ToString(), ")"));
  }
  s = CheckThroughGetAndMultiGet(db, model, maybe, never_written_keys,
                                 "once the filter serves");
  if (!s.ok()) return s;
  if (use != nullptr) ++use->serving_checks;
  return CheckAbsentKeysRuledOut(presence, use);
}

}  // namespace test
}  // namespace sstfilter
