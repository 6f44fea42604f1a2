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
    for (size_t i = 0; i < dbs.size(); ++i) {
      absent[i].push_back(TimeRep(LookupKind::kAbsent, rep, shape, &*dbs[i]));
    }
    for (size_t i = 0; i < dbs.size(); ++i) {
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

absl::StatusOr<std::vector<DbResult>> RunPointSection(
    const DbConfigs& configs, const StoreWanted& wants_store,
    const ConfigWanted& wants, const DbShape& shape, const Progress& progress) {
  std::vector<std::unique_ptr<OpenDb>> dbs;
  if (wants_store("rocksdb")) {
    // An index: dbs grows, so a pointer into it would not stay valid.
    std::optional<size_t> uniform;
    for (const RocksDbConfig& listed : configs.rocksdb) {
      const bool per_level = listed.name == kPerLevelConfig;
      // The per-level policy needs the uniform run's tree: it runs it too.
      const bool needed =
          wants(listed.name) ||
          (listed.name == kUniformConfig && wants(kPerLevelConfig));
      if (!needed) continue;
      RocksDbConfig config = listed;
      if (per_level) {
        if (!uniform.has_value()) {
          return absl::InternalError(absl::StrCat(
              kPerLevelConfig, " needs ", kUniformConfig, " built first"));
        }
        absl::StatusOr<RocksDbConfig> made =
            MakePerLevelConfig(dbs[*uniform]->result, shape.value_bytes);
        if (!made.ok()) return made.status();
        config = *std::move(made);
      }
      absl::StatusOr<std::unique_ptr<OpenDb>> db =
          BuildRocksDb(config, shape, progress);
      if (!db.ok()) return db.status();
      dbs.push_back(*std::move(db));
      if (listed.name == kUniformConfig) uniform = dbs.size() - 1;
    }
  }
  if (wants_store("leveldb")) {
    for (const LevelDbConfig& config : configs.leveldb) {
      if (!wants(config.name)) continue;
      absl::StatusOr<std::unique_ptr<OpenDb>> db =
          BuildLevelDb(config, shape, progress);
      if (!db.ok()) return db.status();
      dbs.push_back(*std::move(db));
    }
  }
  if (dbs.empty()) return std::vector<DbResult>();

  std::vector<DbResult> results = Measure(shape, progress, dbs);
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
    for (DbResult& result : Measure(shape, progress, flushed)) {
      results.push_back(std::move(result));
    }
  }
  return results;  // closing dbs removes every database
}

}  // namespace bench
}  // namespace sstfilter
