// Presents LevelDB 1.23's built-in Bloom filter (leveldb::NewBloomFilterPolicy)
// to the harness, through LevelDB's own API: CreateFilter over all the keys of
// a filter and KeyMayMatch per query. LevelDB has no batched query.

#ifndef SSTFILTER_BENCH_LEVELDB_PEER_H_
#define SSTFILTER_BENCH_LEVELDB_PEER_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "bench/built_filter.h"
#include "filter/filter_policy.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"

namespace sstfilter {
namespace bench {

class LevelDbPeer {
 public:
  static constexpr bool kHasBatch = false;

  // LevelDB takes whole bits per key: a fractional value, or the bits/key
  // derived from an fpp with the standard Bloom formula, is rounded to the
  // nearest integer.
  static absl::StatusOr<std::unique_ptr<LevelDbPeer>> Create(
      const FilterOptions& options);

  // Keeps the keys as LevelDB's FilterBlockBuilder does (one string plus start
  // offsets) and hands them to CreateFilter in Finish: that copy is part of
  // LevelDB's build cost.
  class Builder {
   public:
    Builder(const leveldb::FilterPolicy* policy, int bits_per_key)
        : policy_(policy), bits_per_key_(bits_per_key) {}
    void Add(absl::string_view key) {
      starts_.push_back(keys_.size());
      keys_.append(key.data(), key.size());
    }
    absl::Status Finish(BuiltFilter* out);

   private:
    const leveldb::FilterPolicy* policy_;
    const int bits_per_key_;
    std::string keys_;
    std::vector<size_t> starts_;
  };

  class Reader {
   public:
    Reader(const leveldb::FilterPolicy* policy, absl::string_view filter)
        : policy_(policy), filter_(filter.data(), filter.size()) {}
    bool MayMatch(absl::string_view key) const {
      return policy_->KeyMayMatch(leveldb::Slice(key.data(), key.size()),
                                  filter_);
    }
    void MayMatchBatch(const absl::string_view* keys, int n,
                       bool* results) const {
      for (int i = 0; i < n; ++i)
        results[i] = MayMatch(keys[i]);  // not timed: no batch API
    }
    // The standard Bloom formula at the filter's own size and k, plus 32-bit
    // hash collisions (fpp_math.h).
    double ExpectedFpp(size_t num_keys) const;

   private:
    const leveldb::FilterPolicy* policy_;
    leveldb::Slice filter_;
  };

  std::unique_ptr<Builder> NewBuilder() const {
    return std::make_unique<Builder>(policy_.get(), bits_per_key_);
  }
  Reader NewReader(absl::string_view filter) const {
    return Reader(policy_.get(), filter);
  }
  absl::Status CheckKind(absl::string_view /*filter*/) const {
    return absl::OkStatus();
  }
  double ConfiguredBitsPerKey() const { return bits_per_key_; }
  std::string Details() const;
  // The library version this adapter was compiled against.
  static std::string Version();

 private:
  explicit LevelDbPeer(int bits_per_key);

  const int bits_per_key_;
  std::unique_ptr<const leveldb::FilterPolicy> policy_;
};

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_LEVELDB_PEER_H_
