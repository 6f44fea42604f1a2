#include "bench/impls.h"

#include "absl/strings/str_cat.h"
#include "bench/leveldb_peer.h"
#include "bench/rocksdb_peer.h"
#include "bench/sstfilter_peer.h"
#include "filter/bloom/bloom.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/burr/burr.h"
#include "filter/filter_spec.h"
#include "filter/leveldb/leveldb_bloom.h"

namespace sstfilter {
namespace bench {
namespace {

template <RocksDbFilterKind kKind>
absl::StatusOr<std::unique_ptr<RocksDbPeer>> CreateRocksDb(
    const FilterOptions& o) {
  return RocksDbPeer::Create(kKind, o);
}

template <PolicyFactory kFactory>
absl::StatusOr<std::unique_ptr<SstFilterPeer>> CreateSstFilter(
    const FilterOptions& o) {
  return SstFilterPeer::Create(kFactory, o);
}

// The native policy with its readers pinned to the portable path, whatever
// the CPU: what a CPU without AVX2 runs.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewPortableBloomPolicy(
    const FilterOptions& options) {
  return bloom::NewBloomFilterPolicyWithPath(options,
                                             bloom::ProbePath::kScalar);
}

}  // namespace

const std::vector<ImplEntry>& Registry() {
  static const auto* registry = new std::vector<ImplEntry>{
      // sstfilter's policies first; later ones are named "sstfilter.<variant>".
      {"sstfilter",
       "sstfilter's native cache-local Bloom (NewBloomFilterPolicy)",
       MakeFactory<SstFilterPeer>(CreateSstFilter<NewBloomFilterPolicy>)},
      // Not in the default run: the portable reader is not what an x86-64
      // CPU with AVX2 runs, and it would lengthen every default run.
      {"sstfilter.portable",
       "sstfilter's native Bloom through its portable reader (what CPUs "
       "without AVX2 run: one probe at a time, stopping at the first clear "
       "bit); only when named in --impls",
       MakeFactory<SstFilterPeer>(CreateSstFilter<NewPortableBloomPolicy>),
       /*in_default_run=*/false},
      {"sstfilter.leveldb_compat",
       "sstfilter's LevelDB-compatible Bloom (NewLevelDbFilterPolicy)",
       MakeFactory<SstFilterPeer>(CreateSstFilter<NewLevelDbFilterPolicy>)},
      {"sstfilter.burr",
       "sstfilter's bumped Ribbon, a compact static filter "
       "(NewBurrFilterPolicy)",
       MakeFactory<SstFilterPeer>(CreateSstFilter<NewBurrFilterPolicy>)},
      // Peers, each through its own library.
      {"leveldb", "LevelDB 1.23 built-in Bloom (leveldb::NewBloomFilterPolicy)",
       MakeFactory<LevelDbPeer>(LevelDbPeer::Create)},
      {"rocksdb.fastbloom",
       "RocksDB 7.8.3 FastLocalBloom (NewBloomFilterPolicy, format_version 5)",
       MakeFactory<RocksDbPeer>(
           CreateRocksDb<RocksDbFilterKind::kFastLocalBloom>)},
      {"rocksdb.legacybloom",
       "RocksDB 7.8.3 legacy Bloom (NewBloomFilterPolicy, format_version 4)",
       MakeFactory<RocksDbPeer>(
           CreateRocksDb<RocksDbFilterKind::kLegacyBloom>)},
      {"rocksdb.ribbon",
       "RocksDB 7.8.3 Standard128Ribbon (NewRibbonFilterPolicy)",
       MakeFactory<RocksDbPeer>(CreateRocksDb<RocksDbFilterKind::kRibbon>)},
  };
  return *registry;
}

const ImplEntry* FindImpl(absl::string_view name) {
  for (const ImplEntry& entry : Registry()) {
    if (name == entry.name) return &entry;
  }
  return nullptr;
}

absl::StatusOr<std::unique_ptr<const SpecImpl>> MakeSpecImpl(
    absl::string_view spec) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewFilterPolicyFromString(spec);
  if (!policy.ok()) return policy.status();
  auto impl = std::make_unique<SpecImpl>();
  impl->spec = std::string(spec);
  impl->description = absl::StrCat("sstfilter policy ", (*policy)->ToString(),
                                   " (--filter; its own size)");
  impl->entry.name = impl->spec.c_str();
  impl->entry.description = impl->description.c_str();
  impl->entry.make = MakeFactory<SstFilterPeer>(
      [spec = impl->spec](const FilterOptions& /*options, the spec's own*/)
          -> absl::StatusOr<std::unique_ptr<SstFilterPeer>> {
        absl::StatusOr<std::unique_ptr<const FilterPolicy>> made =
            NewFilterPolicyFromString(spec);
        if (!made.ok()) return made.status();
        return SstFilterPeer::ForPolicy(*std::move(made));
      });
  return std::unique_ptr<const SpecImpl>(std::move(impl));
}

}  // namespace bench
}  // namespace sstfilter
