// db_bench's presence section: sstfilter::PresenceFilteredDB
// (engines/rocksdb/presence/presence_filtered_db.h) against the same table
// files opened by RocksDB alone (a checkpoint: the same inodes and page
// cache), one database per table filter (kRocksDbBloomConfig,
// kHybridConfig). Each round times queries, mixed Gets, opens, a rebuild
// and fills, the two handles in alternating blocks; every figure is the
// median of its rounds, every ratio the median of the rounds' ratios. The
// section in full: bench/db_bench.md ("presence").

#ifndef SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BENCH_PRESENCE_SECTION_H_
#define SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BENCH_PRESENCE_SECTION_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/db/db_configs.h"
#include "bench/db/db_store.h"
#include "bench/db/point_section.h"

namespace sstfilter {
namespace bench {

constexpr char kPresenceSection[] = "presence";
// Keys per MultiGet call.
constexpr size_t kPresenceMultiGetBatch = 32;
// Within a query's timing the two handles take turns of this many keys, each
// asking the same keys, the first to ask alternating from block to block. A
// pair of blocks is far shorter than one of the machine's spells of speed
// (docs/presence_filtered_db.md), so a change of speed reaches both handles
// alike. Each
// block of RocksDB's work leaves little of the wrapper's filter (several MB)
// in the L2 cache and the TLB, so the wrapper starts every block cold; far
// smaller blocks would charge it that refill far more often than a stream of
// lookups pays it.
constexpr uint64_t kPresenceBlockKeys = 16'384;
// Keys each fill turn writes into a fresh database (all of the section's
// keys when it has fewer): enough for dozens of flushes and the compactions
// they start, a few seconds per turn.
constexpr uint64_t kPresenceFillKeys = 1'000'000;
// Fill turns of each kind per round, in rotating order: a turn's rate moves
// by several percent with its flushes and compactions, so the fill ratio is
// the median of this many pairs per round.
constexpr int kPresenceFillTurns = 3;
// Present-key lookups of each kind per round with direct reads, when
// DbShape::lookups is more: each costs a device read, and the figure it
// makes, a device read with or without the wrapper, needs no more.
constexpr uint64_t kPresenceDirectPresentLookups = 10'000;
// The wrapper's filter: this rate, sized for the section's key count.
constexpr double kPresenceFilterFpp = 0.01;
// The mixed sweep's mixes: the share of present keys among its Gets, in %.
constexpr std::array<int, 4> kPresenceMixPercents = {0, 50, 90, 100};
constexpr size_t kPresenceMixes = kPresenceMixPercents.size();
// Each mix asks 1/kPresenceMixedShare of DbShape::lookups per round: four
// mixes of the full count would add about a third to the section's time, and
// half of it still spans several blocks of each handle.
constexpr uint64_t kPresenceMixedShare = 2;

// kRocksDbBloomConfig and kHybridConfig: the configurations are named by the
// table filter under the wrapper.
std::vector<std::string> PresenceConfigNames();

// The queries timed, in this order.
enum class PresenceQuery {
  kGetAbsent,
  kGetPresent,
  kMultiGetAbsent,
  kMultiGetPresent
};
constexpr size_t kPresenceQueries = 4;
// "get_absent", "get_present", "multiget_absent", "multiget_present".
const char* PresenceQueryName(PresenceQuery query);

// One figure of RocksDB alone ("plain") and through the wrapper, one value of
// each per round.
struct PresencePair {
  std::vector<double> plain;
  std::vector<double> wrapped;

  double PlainMedian() const;
  double WrappedMedian() const;
  // The median of the rounds' wrapped / plain: each round measured both over
  // the same seconds, so the machine's drift cancels in each.
  double MedianRatio() const;
  // The median of the rounds' wrapped - plain.
  double MedianDifference() const;
};

// The timed queries of one way of reading.
struct PresenceLookups {
  // Per second: Gets, or keys asked through MultiGet.
  std::array<PresencePair, kPresenceQueries> per_second;
  // Keys each handle is asked per round, and found over every round, of each
  // query.
  std::array<uint64_t, kPresenceQueries> keys_per_round{};
  std::array<uint64_t, kPresenceQueries> found_plain{};
  std::array<uint64_t, kPresenceQueries> found_wrapped{};
};

// The mixed sweep, with the data in the page cache: Gets whose keys are
// present with probability kPresenceMixPercents[m] / 100, the rest absent.
struct PresenceMixedGets {
  std::array<PresencePair, kPresenceMixes> per_second;
  // Keys each handle is asked per round of each mix, and found over every
  // round.
  uint64_t keys_per_round = 0;
  std::array<uint64_t, kPresenceMixes> found_plain{};
  std::array<uint64_t, kPresenceMixes> found_wrapped{};
};

struct PresenceResult {
  DbResult built;            // the tree, as RocksDB built it
  std::string table_filter;  // kRocksDbBloomConfig or kHybridConfig
  uint64_t expected_keys = 0;
  PresenceLookups buffered;  // the data in the page cache
  PresenceMixedGets mixed;   // the data in the page cache too
  // Direct reads (DirectReadFigures' options): whether the file system took
  // O_DIRECT (else RocksDB's refusal), and the block cache.
  struct Direct {
    bool direct = false;
    std::string refused;
    uint64_t block_cache_bytes = 0;
    PresenceLookups lookups;
  };
  std::optional<Direct> direct;
  uint64_t fill_keys = 0;
  PresencePair fill_keys_per_second;
  // Per round, the saves the wrapper made while it was filled (after its
  // flushes and compactions: PresenceFilterOptions::save_after_background_work)
  // and the seconds they took, from its PresenceFilterListener.
  std::vector<double> fill_saves;
  std::vector<double> fill_save_seconds;
  // RocksDB's write stalls during each fill (STALL_MICROS), in seconds: the
  // foreground writes held back while flushes and compactions catch up.
  PresencePair fill_stall_seconds;
  // A third fill turn each round, through the wrapper with
  // PresenceFilterOptions::save_after_background_work = false (saves only at
  // close): `wrapped` holds its keys/s, `plain` RocksDB's of the same round,
  // so that the ratio tells the saves' share of the fill's cost from the
  // per-write share.
  PresencePair fill_without_saves;
  // RocksDB's open, against the wrapper's Open + WaitUntilServing of a
  // database it closed with CloseAndSave.
  PresencePair open_seconds;
  // The wrapper's Open + WaitUntilServing with the saved filter deleted.
  std::vector<double> rebuild_seconds;
  std::vector<double> close_and_save_seconds;
  // Of the wrapper's opens with a saved filter, those that restored it
  // without reading a table (PresenceRebuildReason::kNone); every other open
  // is named in `unrestored`.
  uint64_t restored_opens = 0;
  std::vector<std::string> unrestored;
  // PresenceFilteredDB::Stats of the default column family, serving, in the
  // last round.
  uint64_t memory_bytes = 0;
  // What the serving filter was sized for: a rebuild sizes it for the keys
  // it found times kRebuildHeadroom.
  uint64_t sized_for_keys = 0;
  uint64_t approximate_keys = 0;
  double expected_fpp = 0;
  // The machine's load averages (LoadAverages) when the section's first
  // round began and when its last ended: whether other jobs shared it.
  std::string load_at_start;
  std::string load_at_end;
};

// Builds the wanted configurations' databases (and the Bloom database, whose
// tree sizes the hybrid policy, whether wanted or not), then measures
// shape.reps rounds as above: direct reads when `direct_reads`. Any error stops
// it: a database not built or not opened, a present key not found or an absent
// key found, by either handle. The databases are removed before it returns.
absl::StatusOr<std::vector<PresenceResult>> RunPresenceSection(
    const DbConfigs& configs, const ConfigWanted& wants, const DbShape& shape,
    bool direct_reads, const Progress& progress);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_ROCKSDB_PRESENCE_BENCH_PRESENCE_SECTION_H_
