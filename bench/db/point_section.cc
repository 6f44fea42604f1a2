#include "bench/db/point_section.h"

#include <memory>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bench/db/leveldb_store.h"
#include "bench/db/lookups.h"
#include "bench/db/rocksdb_store.h"
#include "bench/keys.h"
#include "bench/turns.h"

namespace sstfilter {
namespace bench {
namespace {

// Warms up dbs, then times shape.reps repetitions of absent and of present
// lookups. Each repetition asks every database in turn, so that drift in the
// machine's speed (10-60% here over minutes) reaches every one alike.
template <typename Db>
std::vector<DbResult> Measure(const DbShape& shape, const Progress& progress,
                              const std::vector<Db>& dbs) {
  progress("warming up every database");
  for (const auto& db : dbs) {
    WarmUp(LookupKind::kAbsent, shape, &*db);
    WarmUp(LookupKind::kPresent, shape, &*db);
  }
  std::vector<std::vector<RepFigures>> absent(dbs.size());
  std::vector<std::vector<RepFigures>> present(dbs.size());
  for (int rep = 0; rep < shape.reps; ++rep) {
    progress(absl::StrFormat("repetition %d of %d", rep + 1, shape.reps));
    for (size_t turn = 0; turn < dbs.size(); ++turn) {
      const size_t i = TurnOf(rep, turn, dbs.size());
      absent[i].push_back(TimeRep(LookupKind::kAbsent, rep, shape, &*dbs[i]));
    }
    for (size_t turn = 0; turn < dbs.size(); ++turn) {
      const size_t i = TurnOf(rep, turn, dbs.size());
      present[i].push_back(TimeRep(LookupKind::kPresent, rep, shape, &*dbs[i]));
    }
  }
  std::vector<DbResult> results;
  for (size_t i = 0; i < dbs.size(); ++i) {
    DbResult result = dbs[i]->result;
    result.absent = Summarize(absent[i], shape.lookups);
    result.present = Summarize(present[i], shape.lookups);
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace

namespace {

// Lookups of present keys each database must find in its direct-read mode
// before it is timed, and their draws (lookups.h), past the warm-up's.
constexpr uint64_t kDirectCheckedPresentKeys = 1'000;
constexpr uint64_t kDirectCheckDrawBase = 60'000'000'000;

// Reopens every database that can with direct reads (ReopenWithDirectReads),
// checks that present keys are found, times absent lookups as Measure does
// and stores the figures in each one's result; then reopens it buffered.
absl::Status MeasureDirect(const DbShape& shape, const Progress& progress,
                           const std::vector<OpenDb*>& all) {
  std::vector<OpenDb*> dbs;
  for (OpenDb* db : all) {
    absl::StatusOr<DirectReadFigures> figures =
        db->ReopenWithDirectReads(shape);
    if (absl::IsUnimplemented(figures.status())) continue;
    if (!figures.ok()) return figures.status();
    if (!figures->direct) {
      progress(absl::StrFormat("%s: direct reads refused (%s); buffered reads",
                               db->result.config, figures->refused));
    }
    db->result.direct = *std::move(figures);
    dbs.push_back(db);
  }
  if (dbs.empty()) return absl::OkStatus();
  progress(absl::StrFormat("%d databases with direct reads, %s", dbs.size(),
                           dbs[0]->result.tree));
  char key[kMaxKeyBytes];
  const QueryMaker present = Random16Query(LookupKind::kPresent);
  for (OpenDb* db : dbs) {
    for (uint64_t i = 0; i < kDirectCheckedPresentKeys; ++i) {
      const size_t len = present(kDirectCheckDrawBase + i, shape.keys, key);
      if (!db->Lookup(absl::string_view(key, len))) {
        return absl::DataLossError(
            absl::StrFormat("%s: present key %d not found with direct reads",
                            db->result.config, i));
      }
    }
    WarmUp(LookupKind::kAbsent, shape, db);
  }
  std::vector<std::vector<RepFigures>> absent(dbs.size());
  std::vector<uint64_t> metadata_before;
  for (OpenDb* db : dbs) metadata_before.push_back(db->MetadataReads());
  for (int rep = 0; rep < shape.reps; ++rep) {
    for (size_t turn = 0; turn < dbs.size(); ++turn) {
      const size_t i = TurnOf(rep, turn, dbs.size());
      absent[i].push_back(TimeRep(LookupKind::kAbsent, rep, shape, dbs[i]));
    }
  }
  for (size_t i = 0; i < dbs.size(); ++i) {
    DirectReadFigures& figures = *dbs[i]->result.direct;
    figures.absent = Summarize(absent[i], shape.lookups);
    figures.metadata_misses_per_lookup =
        static_cast<double>(dbs[i]->MetadataReads() - metadata_before[i]) /
        static_cast<double>(figures.absent.lookups);
    absl::Status status = dbs[i]->ReopenBuffered(shape);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// The point section's measurements of dbs in their current tree: direct
// reads first when asked for (they reopen each database), then Measure.
absl::StatusOr<std::vector<DbResult>> MeasureTree(
    const DbShape& shape, const Progress& progress,
    const std::vector<OpenDb*>& dbs) {
  for (OpenDb* db : dbs) db->result.direct.reset();
  if (shape.direct_reads) {
    absl::Status status = MeasureDirect(shape, progress, dbs);
    if (!status.ok()) return status;
  }
  return Measure(shape, progress, dbs);
}

}  // namespace

absl::StatusOr<std::vector<DbResult>> RunPointSection(
    const DbConfigs& configs, const StoreWanted& wants_store,
    const ConfigWanted& wants, const DbShape& shape, const Progress& progress) {
  std::vector<std::unique_ptr<OpenDb>> dbs;
  if (wants_store(kRocksDbStore)) {
    const std::vector<SizedRocksDbConfig>& sized = configs.sized;
    const auto sized_config = [&](const std::string& name) {
      const SizedRocksDbConfig* found = nullptr;
      for (const SizedRocksDbConfig& s : sized) {
        if (s.name == name) found = &s;
      }
      return found;
    };
    // A configuration runs when wanted, or when a wanted one is sized from
    // its database.
    const auto needed = [&](const std::string& name) {
      if (wants(name)) return true;
      for (const SizedRocksDbConfig& s : sized) {
        if (s.base == name && wants(s.name)) return true;
      }
      return false;
    };
    for (const RocksDbConfig& listed : configs.rocksdb) {
      if (!needed(listed.name)) continue;
      RocksDbConfig config = listed;
      if (const SizedRocksDbConfig* s = sized_config(listed.name)) {
        const OpenDb* base = nullptr;
        for (const auto& db : dbs) {
          if (db->result.config == s->base) base = db.get();
        }
        if (base == nullptr) {
          return absl::InternalError(
              absl::StrCat(s->name, " needs ", s->base, " built first"));
        }
        absl::StatusOr<RocksDbConfig> made = s->make(base->result, shape);
        if (!made.ok()) return made.status();
        config = *std::move(made);
      }
      absl::StatusOr<std::unique_ptr<OpenDb>> db =
          BuildRocksDb(config, shape, progress);
      if (!db.ok()) return db.status();
      dbs.push_back(*std::move(db));
    }
  }
  if (wants_store(kLevelDbStore)) {
    for (const LevelDbConfig& config : configs.leveldb) {
      if (!wants(config.name)) continue;
      absl::StatusOr<std::unique_ptr<OpenDb>> db =
          BuildLevelDb(config, shape, progress);
      if (!db.ok()) return db.status();
      dbs.push_back(*std::move(db));
    }
  }
  if (dbs.empty()) return std::vector<DbResult>();

  std::vector<OpenDb*> all;
  for (const auto& db : dbs) all.push_back(db.get());
  absl::StatusOr<std::vector<DbResult>> results =
      MeasureTree(shape, progress, all);
  if (!results.ok()) return results.status();
  // Then the same databases as a store taking writes has them: L0 holds
  // recent flushes, each one more run a lookup consults.
  std::vector<OpenDb*> flushed;
  for (const auto& db : dbs) {
    const absl::Status status = db->AddRecentFlushes(shape);
    if (absl::IsUnimplemented(status)) continue;
    if (!status.ok()) return status;
    flushed.push_back(db.get());
  }
  if (!flushed.empty()) {
    progress(absl::StrFormat("%d databases with %s", flushed.size(),
                             kRecentFlushesTree));
    absl::StatusOr<std::vector<DbResult>> more =
        MeasureTree(shape, progress, flushed);
    if (!more.ok()) return more.status();
    for (DbResult& result : *more) results->push_back(std::move(result));
  }
  return results;  // closing dbs removes every database
}

}  // namespace bench
}  // namespace sstfilter
